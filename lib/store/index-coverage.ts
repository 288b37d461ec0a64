import { readFileSync } from 'node:fs';
import { writePrivateFile } from '../local-state/private-file';
import { STATE_FILES, statePath } from '../local-state/state-files';
import type { MemoryTree } from './memory-tree';
import { COUNTS_PATH, parseCounts } from './selection-index';

/** How many capsules the tree holds and how many the derived index counts. */
export interface IndexCoverage {
  inTree: number;
  indexed: number;
}

/**
 * Whether the derived index covers every capsule on the branch: a capsule written by an older
 * version, a hand-made commit or a plain `git merge` of the branch is in the tree but not in
 * the index, and selection (which reads the index) would never see it. Bounded cost: the index
 * counts are one small blob, and the capsule folders are counted per day tree (an older
 * layout's: per month tree), reusing the counts of trees seen before (kept by tree id in the
 * runtime dir), so a resume after one write reads `capsules/` and one day's tree. A tip without
 * an index counts as covered (listings then recompute from the capsules themselves). Never
 * throws for the cache.
 */
export async function indexCoverage(tree: MemoryTree, stateDir: string | null): Promise<IndexCoverage> {
  const tip = await tree.tip();
  if (tip === null) return { inTree: 0, indexed: 0 };
  const cache = stateDir === null ? null : statePath(stateDir, STATE_FILES.capsuleCounts);
  const known = readKnown(cache);
  const [countsText, dirs] = await Promise.all([tree.text(tip, COUNTS_PATH), tree.countCapsuleDirs(tip, known)]);
  if (cache !== null && !sameKeys(known, dirs.months)) writeKnown(cache, dirs.months);
  const counts = countsText === null ? null : parseCounts(countsText);
  if (counts === null) return { inTree: dirs.total, indexed: dirs.total };
  return { inTree: dirs.total, indexed: Object.values(counts).reduce((a, b) => a + b, 0) };
}

function readKnown(path: string | null): Map<string, number> {
  if (path === null) return new Map();
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as { months?: Record<string, unknown> };
    // Keys are only ever looked up by a tree id just read, so a stray key matches nothing; the
    // counts are what must be sound.
    const known = new Map<string, number>();
    for (const [oid, n] of Object.entries(data.months ?? {})) if (Number.isInteger(n) && (n as number) >= 0) known.set(oid, n as number);
    return known;
  } catch {
    return new Map();
  }
}

function sameKeys(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  return a.size === b.size && [...b.keys()].every((k) => a.has(k));
}

/** Only the shard trees of this tip are kept (the `months` key predates layout 3; it holds day trees now): the file stays as small as the branch has days. Through the runtime state's private writer (0600, atomic, never through a link). */
function writeKnown(path: string, months: ReadonlyMap<string, number>): void {
  try {
    writePrivateFile(path, `${JSON.stringify({ format: 1, months: Object.fromEntries(months) })}\n`);
  } catch {
    // A read-only runtime dir costs the next resume the month reads again, nothing else.
  }
}
