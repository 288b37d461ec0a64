import { STATUSES, type CapsuleStatus } from '../capsule/types';
import { collectEntries } from './collect-entries';
import type { MemoryTree } from './memory-tree';
import { COUNTS_PATH, INDEX_DIR, compareNewestFirst, parseCounts, parseShard } from './selection-index';
import type { IndexEntry, ListIndexOptions, StatusCounts } from './types';

/**
 * Index entries newest first (by UTC created_at), read from the derived index in the tip tree:
 * walking years and months downwards, it stops as soon as `limit` entries are certain, so the
 * newest active capsule costs three small reads at any N. A tip without an index falls back to
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
  const years = [...new Set(yearLists.flat())].sort().reverse();
  for (const year of years) {
    const holders = statuses.filter((_, i) => yearLists[i]!.includes(year));
    const monthLists = await Promise.all(holders.map(async (s) => ((await tree.tree(tip, `${INDEX_DIR}/${s}/${year}`)) ?? []).filter((e) => !e.isTree).map((e) => e.name)));
    const months = [...new Set(monthLists.flat())].sort().reverse();
    for (const mm of months) {
      const shardHolders = holders.filter((_, i) => monthLists[i]!.includes(mm));
      const texts = await Promise.all(shardHolders.map((s) => tree.text(tip, `${INDEX_DIR}/${s}/${year}/${mm}`)));
      const monthEntries = shardHolders.flatMap((s, i) => parseShard(texts[i] ?? '', s, `${year}/${mm}`));
      found.push(...monthEntries.sort(compareNewestFirst));
      if (found.length >= limit) return found.slice(0, limit);
    }
  }
  return found;
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
