import { CapsuleError } from '../errors/capsule-error';
import { capsuleDir, legacyDirHints } from './memory-format';
import type { MemoryTree } from './memory-tree';

/** Where a capsule lives: its full id and its directory in the memory tree. */
export interface CapsuleLocation {
  id: string;
  dir: string;
}

/**
 * Finds a capsule by full id or unambiguous id prefix (case-insensitive). A full id is tried
 * first where its own time puts it (one round trip; formats 2's and 1's folders next), otherwise the
 * shard folders are scanned, never the documents. Throws NOT_FOUND, AMBIGUOUS_ID (data.candidates).
 */
export async function findCapsule(tree: MemoryTree, tip: string | null, idOrPrefix: string): Promise<CapsuleLocation> {
  const wanted = idOrPrefix.trim();
  if (tip === null || !/^[0-9A-Za-z-]{1,64}$/.test(wanted)) throw notFound(wanted, tip === null ? 'the memory branch does not exist yet' : 'that is not an id or id prefix');
  for (const id of new Set([wanted, wanted.toUpperCase()])) {
    const hinted = await locateById(tree, tip, id);
    if (hinted !== null) return hinted;
  }
  const lower = wanted.toLowerCase();
  const all = await tree.capsuleDirs(tip);
  const exact = all.find((d) => d.id.toLowerCase() === lower);
  if (exact) return { id: exact.id, dir: exact.dir };
  const matches = all.filter((d) => d.id.toLowerCase().startsWith(lower));
  if (matches.length === 1) return { id: matches[0]!.id, dir: matches[0]!.dir };
  if (matches.length === 0) throw notFound(wanted, `none of the ${all.length} capsules has that id`);
  const candidates = matches.map((m) => m.id).sort().slice(0, 10);
  throw new CapsuleError('AMBIGUOUS_ID', `id prefix "${wanted}" matches ${matches.length} capsules (${candidates.slice(0, 3).join(', ')}…); give more characters`, { prefix: wanted, count: matches.length, candidates });
}

/**
 * The directory of a full id where the layout puts it (format 3), else where format 2 did, else
 * where format 1 most likely did; null when it is in none (then only a scan can tell). The
 * reads are pipelined.
 */
export async function locateById(tree: MemoryTree, tip: string, id: string): Promise<CapsuleLocation | null> {
  const dirs = [capsuleDir(id), ...legacyDirHints(id)];
  const trees = await Promise.all(dirs.map((d) => tree.tree(tip, d)));
  const i = trees.findIndex((t) => t !== null);
  return i < 0 ? null : { id, dir: dirs[i]! };
}

function notFound(id: string, why: string): CapsuleError {
  return new CapsuleError('NOT_FOUND', `no capsule "${id.slice(0, 80)}" on the memory branch: ${why}; see git capsule list`, { id: id.slice(0, 80), reason: why });
}
