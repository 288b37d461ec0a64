import { STATUSES, type CapsuleStatus } from '../capsule/types';
import { collectEntries } from './collect-entries';
import type { MemoryTree } from './memory-tree';
import { COUNTS_PATH, INDEX_DIR, authorKey, buildIndexFiles, dayShardDir, encodeCounts, encodeIndexLine, dayOfSortKey, parseCounts, parseShard, replaceShardLine, shardPath } from './selection-index';
import type { IndexEntry } from './types';

/** The index files one write changes (content, or null to delete) and directories to clear first. */
export interface IndexChange {
  files: Map<string, string | null>;
  deleteDirs: string[];
}

/**
 * The incremental index update for one capsule's new entry: its line leaves the shard of its
 * previous status and joins the shard of its new one, and the counts follow. Only that capsule's
 * author's shards of its day are read and written (and `previousAuthorKey`'s, when the document
 * it replaces names another author), so what a write costs does not grow with the rest of the
 * team. A day the previous version kept as one blob is split into author shards in the same
 * commit. `previous` is the status it had, `none` for a new capsule, `unknown` to look in every
 * status. A tip without an index (e.g. after a merge by plain git) gets the whole index rebuilt in
 * the same commit; so does a write carrying a layout `upgrade`, from the upgrade's entries.
 */
export async function indexChange(tree: MemoryTree, tip: string | null, entry: IndexEntry, previous: CapsuleStatus | 'none' | 'unknown', opts: { upgrade?: { entries: IndexEntry[] } | null; previousAuthorKey?: string } = {}): Promise<IndexChange> {
  if (opts.upgrade) {
    // A layout upgrade rides on this write: the index is built whole from the upgrade's entries.
    return { files: new Map(buildIndexFiles([...opts.upgrade.entries.filter((e) => e.id !== entry.id), entry])), deleteDirs: tip === null ? [] : [INDEX_DIR] };
  }
  const day = dayOfSortKey(entry.sortKey);
  const look: CapsuleStatus[] = previous === 'unknown' ? [...STATUSES] : previous === 'none' ? [entry.status] : [...new Set([previous, entry.status])];
  const key = authorKey(entry.author);
  const keys = [...new Set([key, opts.previousAuthorKey ?? key])];
  // The counts, each status's day as the previous version's one blob (null when it is a folder or
  // absent) and this author's shards, asked at once (one round trip to git); a tip without counts
  // (rare) rebuilds the index and does not use the shards.
  const [countsText, blobs, shards] = tip === null ? [null, [], []] : await Promise.all([
    tree.text(tip, COUNTS_PATH),
    Promise.all(look.map((s) => tree.text(tip, dayShardDir(s, day)))),
    Promise.all(look.map((s) => Promise.all(keys.map((k) => tree.text(tip, `${dayShardDir(s, day)}/${k}`))))),
  ]);
  const counts = countsText === null ? null : parseCounts(countsText);
  if (tip === null || counts === null) {
    const hasCapsules = tip !== null && (await tree.tree(tip, 'capsules')) !== null;
    const others = hasCapsules ? (await collectEntries(tree, tip!)).filter((e) => e.id !== entry.id) : [];
    return { files: new Map(buildIndexFiles([...others, entry])), deleteDirs: tip === null ? [] : [INDEX_DIR] };
  }
  const files = new Map<string, string | null>();
  const deleteDirs: string[] = [];
  const line = encodeIndexLine(entry);
  look.forEach((status, i) => {
    const mine = status === entry.status ? line : null;
    const blob = blobs[i] ?? null;
    if (blob !== null) {
      // The previous version's day blob: split by author, this capsule's line replaced, the blob removed first.
      if (blob.includes(`_${entry.id}\t`)) counts[status] = Math.max(0, counts[status] - 1);
      deleteDirs.push(dayShardDir(status, day));
      for (const [path, text] of splitDayBlob(status, day, replaceShardLine(blob, entry.id, null))) files.set(path, text);
      if (mine !== null) files.set(shardPath(status, day, entry.author), replaceShardLine(files.get(shardPath(status, day, entry.author)) ?? null, entry.id, mine));
      return;
    }
    keys.forEach((k, j) => {
      const old = shards[i]?.[j] ?? null;
      if (old !== null && old.includes(`_${entry.id}\t`)) counts[status] = Math.max(0, counts[status] - 1);
      const next = replaceShardLine(old, entry.id, k === key ? mine : null);
      if (next !== old) files.set(`${dayShardDir(status, day)}/${k}`, next);
    });
  });
  counts[entry.status] += 1;
  files.set(COUNTS_PATH, encodeCounts(counts));
  return { files, deleteDirs };
}

/** The lines of a previous version's day blob, as this version's author shards (path → text). */
function splitDayBlob(status: CapsuleStatus, day: string, text: string | null): Map<string, string> {
  const byShard = new Map<string, string[]>();
  for (const line of (text ?? '').split('\n')) {
    const parsed = parseShard(line, status)[0];
    if (parsed === undefined) continue; // a damaged line: the index is derived, a rebuild restores it
    const path = shardPath(status, day, parsed.author);
    byShard.set(path, [...(byShard.get(path) ?? []), line]);
  }
  return new Map([...byShard].map(([path, lines]) => [path, `${lines.sort().join('\n')}\n`]));
}
