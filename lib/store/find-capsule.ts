import { CapsuleError } from '../errors/capsule-error';
import { ulidMonth } from './memory-format';
import type { MemoryTree } from './memory-tree';

/** Where a capsule lives: its full id and UTC month (`yyyy/mm`). */
export interface CapsuleLocation {
  id: string;
  month: string;
}

/**
 * Finds a capsule by full id or unambiguous id prefix (case-insensitive). A full ULID is tried
 * first in the month its time names (one tree read); otherwise the month folders are scanned,
 * never the documents. Throws NOT_FOUND, AMBIGUOUS_ID (data.candidates).
 */
export async function findCapsule(tree: MemoryTree, tip: string | null, idOrPrefix: string): Promise<CapsuleLocation> {
  const wanted = idOrPrefix.trim();
  if (tip === null || !/^[0-9A-Za-z-]{1,64}$/.test(wanted)) throw notFound(wanted, tip === null ? 'the memory branch does not exist yet' : 'that is not an id or id prefix');
  const hinted = ulidMonth(wanted.toUpperCase());
  if (hinted !== null && (await tree.tree(tip, `capsules/${hinted}/${wanted.toUpperCase()}`)) !== null) {
    return { id: wanted.toUpperCase(), month: hinted };
  }
  const lower = wanted.toLowerCase();
  const all = await tree.capsuleDirs(tip);
  const exact = all.find((d) => d.id.toLowerCase() === lower);
  if (exact) return exact;
  const matches = all.filter((d) => d.id.toLowerCase().startsWith(lower));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw notFound(wanted, `none of the ${all.length} capsules has that id`);
  const candidates = matches.map((m) => m.id).sort().slice(0, 10);
  throw new CapsuleError('AMBIGUOUS_ID', `id prefix "${wanted}" matches ${matches.length} capsules (${candidates.slice(0, 3).join(', ')}…); give more characters`, { prefix: wanted, count: matches.length, candidates });
}

function notFound(id: string, why: string): CapsuleError {
  return new CapsuleError('NOT_FOUND', `no capsule "${id.slice(0, 80)}" on the memory branch: ${why}; see git capsule list`, { id: id.slice(0, 80), reason: why });
}
