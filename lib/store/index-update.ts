import { STATUSES, type CapsuleStatus } from '../capsule/types';
import { collectEntries } from './collect-entries';
import type { MemoryTree } from './memory-tree';
import { COUNTS_PATH, INDEX_DIR, buildIndexFiles, encodeCounts, encodeIndexLine, dayOfSortKey, parseCounts, replaceShardLine, shardPath } from './selection-index';
import type { IndexEntry } from './types';

/** The index files one write changes (content, or null to delete) and directories to clear first. */
export interface IndexChange {
  files: Map<string, string | null>;
  deleteDirs: string[];
}

/**
 * The incremental index update for one capsule's new entry: its line leaves the shard of its
 * previous status and joins the shard of its new one, and the counts follow. Only the shards
 * of that capsule's day are read. `previous` is the status it had, `none` for a new capsule,
 * `unknown` to look in every status. A tip without an index (e.g. after a merge by plain git)
 * gets the whole index rebuilt in the same commit; so does a write carrying a layout `upgrade`,
 * from the upgrade's entries.
 */
export async function indexChange(tree: MemoryTree, tip: string | null, entry: IndexEntry, previous: CapsuleStatus | 'none' | 'unknown', opts: { upgrade?: { entries: IndexEntry[] } | null } = {}): Promise<IndexChange> {
  if (opts.upgrade) {
    // A layout upgrade rides on this write: the index is built whole from the upgrade's entries.
    return { files: new Map(buildIndexFiles([...opts.upgrade.entries.filter((e) => e.id !== entry.id), entry])), deleteDirs: tip === null ? [] : [INDEX_DIR] };
  }
  const day = dayOfSortKey(entry.sortKey);
  const look: CapsuleStatus[] = previous === 'unknown' ? [...STATUSES] : previous === 'none' ? [entry.status] : [...new Set([previous, entry.status])];
  // The counts and the day's shards asked at once (one round trip to git, not two); a tip
  // without counts (rare) rebuilds the index and does not use the shards.
  const [countsText, shards] = tip === null ? [null, []] : await Promise.all([tree.text(tip, COUNTS_PATH), Promise.all(look.map((s) => tree.text(tip, shardPath(s, day))))]);
  const counts = countsText === null ? null : parseCounts(countsText);
  if (tip === null || counts === null) {
    const hasCapsules = tip !== null && (await tree.tree(tip, 'capsules')) !== null;
    const others = hasCapsules ? (await collectEntries(tree, tip!)).filter((e) => e.id !== entry.id) : [];
    return { files: new Map(buildIndexFiles([...others, entry])), deleteDirs: tip === null ? [] : [INDEX_DIR] };
  }
  const files = new Map<string, string | null>();
  look.forEach((status, i) => {
    const old = shards[i] ?? null;
    if (old !== null && old.includes(`_${entry.id}\t`)) counts[status] = Math.max(0, counts[status] - 1);
    const next = replaceShardLine(old, entry.id, status === entry.status ? encodeIndexLine(entry) : null);
    if (next !== old) files.set(shardPath(status, day), next);
  });
  counts[entry.status] += 1;
  files.set(COUNTS_PATH, encodeCounts(counts));
  return { files, deleteDirs: [] };
}

