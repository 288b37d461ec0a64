import { STATUSES, type CapsuleStatus } from '../capsule/types';
import { collectEntries } from './collect-entries';
import { planLayoutUpgrade } from './layout-upgrade';
import type { MemoryTree } from './memory-tree';
import { indexDays, readDayEntries } from './day-shards';
import { COUNTS_PATH, compareNewestFirst, parseCounts } from './selection-index';
import type { IndexEntry, ListIndexOptions, StatusCounts } from './types';

/**
 * Index entries newest first (by UTC created_at), read from the derived index in the tip tree:
 * one tree read per status lists its days, whose author shards are then read newest day first
 * until `limit` entries are certain, so the newest active capsule costs four small reads at any N
 * (a day the previous version wrote as one blob costs one read less).
 * A tip of an older layout is read through its upgrade plan (its own index converted, documents
 * read only for what that index lacks); a tip without any index falls back to recomputing from
 * the capsules. Throws MEMORY_ROOT, MEMORY_FORMAT_NEWER.
 */
export async function listIndex(tree: MemoryTree, opts: ListIndexOptions = {}): Promise<IndexEntry[]> {
  const tip = await tree.tip();
  if (tip === null) return [];
  const statuses: readonly CapsuleStatus[] = opts.status ?? STATUSES;
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const [countsText, dayLists] = await Promise.all([
    tree.text(tip, COUNTS_PATH),
    Promise.all(statuses.map((s) => indexDays(tree, tip, s))),
  ]);
  if (countsText === null || parseCounts(countsText) === null) {
    const all = (await entriesWithoutIndex(tree, tip)).filter((e) => statuses.includes(e.status));
    return all.sort(compareNewestFirst).slice(0, limit);
  }
  const found: IndexEntry[] = [];
  // Newest day first, every status's shards of that day read in two round trips (folders, then blobs).
  for (const day of [...new Set(dayLists.flatMap((d) => [...d.keys()]))].sort().reverse()) {
    const here = statuses.flatMap((status, i) => (dayLists[i]!.has(day) ? [{ status, day, shape: dayLists[i]!.get(day)! }] : []));
    found.push(...(await readDayEntries(tree, tip, here)).sort(compareNewestFirst));
    if (found.length >= limit) break;
  }
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
  for (const e of await entriesWithoutIndex(tree, tip)) counts[e.status] += 1;
  return counts;
}

/**
 * Every entry of a tip whose index this version cannot read as it is. A branch of an older layout
 * (every branch right after an upgrade of git-capsule) keeps its own index, which the upgrade plan
 * converts without reading documents: reading every document instead took a resume on 10,000
 * capsules past its 7 s budget, so the consume that upgrades the branch never ran.
 */
async function entriesWithoutIndex(tree: MemoryTree, tip: string): Promise<IndexEntry[]> {
  const upgrade = await planLayoutUpgrade(tree, tip);
  return upgrade !== null ? upgrade.entries : collectEntries(tree, tip);
}
