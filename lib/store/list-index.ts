import { STATUSES, type CapsuleStatus } from '../capsule/types';
import { collectEntries } from './collect-entries';
import type { MemoryTree } from './memory-tree';
import { COUNTS_PATH, INDEX_DIR, compareNewestFirst, parseCounts, parseShard } from './selection-index';
import type { IndexEntry, ListIndexOptions, StatusCounts } from './types';

/**
 * Index entries newest first (by UTC created_at), read from the derived index in the tip tree:
 * walking years, months and days downwards, it stops as soon as `limit` entries are certain, so
 * the newest active capsule costs four small reads at any N. A tip without an index falls back to
 * recomputing from the capsules. Throws MEMORY_ROOT.
 */
export async function listIndex(tree: MemoryTree, opts: ListIndexOptions = {}): Promise<IndexEntry[]> {
  const tip = await tree.tip();
  if (tip === null) return [];
  const statuses: readonly CapsuleStatus[] = opts.status ?? STATUSES;
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const [countsText, yearLists] = await Promise.all([
    tree.text(tip, COUNTS_PATH),
    Promise.all(statuses.map(async (s) => (await tree.subtrees(tip, `${INDEX_DIR}/${s}`)))),
  ]);
  if (countsText === null || parseCounts(countsText) === null) {
    const all = (await collectEntries(tree, tip)).filter((e) => statuses.includes(e.status));
    return all.sort(compareNewestFirst).slice(0, limit);
  }
  const found: IndexEntry[] = [];
  // Newest first, level by level (year, month, day), each status's folders read in one round trip.
  const walk = async (dir: string, holders: readonly CapsuleStatus[], names: string[][], depth: number): Promise<boolean> => {
    for (const name of [...new Set(names.flat())].sort().reverse()) {
      const here = holders.filter((_, i) => names[i]!.includes(name));
      const path = dir === '' ? name : `${dir}/${name}`;
      if (depth === 2) {
        const texts = await Promise.all(here.map((s) => tree.text(tip, `${INDEX_DIR}/${s}/${path}`)));
        found.push(...here.flatMap((s, i) => parseShard(texts[i] ?? '', s)).sort(compareNewestFirst));
        if (found.length >= limit) return true;
        continue;
      }
      const below = await Promise.all(here.map(async (s) => ((await tree.tree(tip, `${INDEX_DIR}/${s}/${path}`)) ?? []).filter((e) => e.isTree === (depth === 0)).map((e) => e.name)));
      if (await walk(path, here, below, depth + 1)) return true;
    }
    return false;
  };
  await walk('', statuses, yearLists, 0);
  return found.slice(0, limit);
}

/** Capsules per derived status from `index/counts.json` (one small read); recomputed when absent. */
export async function countByStatus(tree: MemoryTree): Promise<StatusCounts> {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as StatusCounts;
  const tip = await tree.tip();
  if (tip === null) return counts;
  const text = await tree.text(tip, COUNTS_PATH);
  const parsed = text === null ? null : parseCounts(text);
  if (parsed !== null) return parsed;
  for (const e of await collectEntries(tree, tip)) counts[e.status] += 1;
  return counts;
}
