import { STATUSES, type CapsuleStatus } from '../capsule/types';
import { capsulePath, isSafeId } from './memory-format';
import type { IndexEntry, StatusCounts } from './types';

/**
 * The derived selection index kept in the tip tree:
 *
 *   index/counts.json                           capsules per derived status (one small blob)
 *   index/<status>/<yyyy-mm-dd>/<author key>    one line per capsule, `<UTC sort key>_<id>\t<json>`, sorted
 *
 * Sharding by status and the UTC day of `created_at` keeps every rewritten blob as small as one
 * day's capsules, however many a team writes in a month; sharding each day by the capsule's
 * author keeps it as small as one author's capsules of that day, however large the team: every
 * Stop rewrites its own autosave's line, and a shard of the whole team's active capsules of the
 * day made each Stop's bytes grow with the team (docs/performance.md). The newest active capsule
 * is in the newest `index/active/<day>/` folder. The index is never the source of truth:
 * `buildIndexFiles` recomputes it from the capsules. A day shard that is one blob
 * (`index/<status>/<yyyy-mm-dd>`, counts `"format":3`, what the previous version wrote) is read as
 * it is and split by author on the next write of that day. Format 1 sharded by month, format 2 by
 * `<yyyy>/<mm>/<dd>`; their counts files say `format: 1` and `format: 2`, which this reader does
 * not take as its own: listings read such a tip through its upgrade plan (list-index.ts), and
 * the next write converts it.
 */
export const INDEX_DIR = 'index';
/** Capsules per derived status, so "N already consumed" costs one small read. */
export const COUNTS_PATH = 'index/counts.json';
/**
 * The counts file's format: 4 since days are split by author. A previous version reads only 3 as
 * its own, so on a branch this version wrote it recomputes its listings from the documents (slow,
 * never wrong) instead of reading a day folder as nothing.
 */
const INDEX_FORMAT = 4;
/** The counts format of a tip whose day shards are single blobs (the previous version's), read as current. */
const DAY_BLOB_FORMAT = 3;
/** The longest author key: a file name, bounded whatever email a writer has. */
const AUTHOR_KEY_MAX = 64;
const OBJECTIVE_MAX = 200;
/** Who and where, in every line (additive: lines of earlier versions lack them and read as before), so selection scopes without reading documents. */
const IDENTITY_KEYS = ['author', 'machine', 'worktree', 'branch', 'handoffTo'] as const;
const IDENTITY_MAX = 200;

/** The folder of one derived status's capsules created on one UTC day (`yyyy-mm-dd`), one shard per author inside. */
export function dayShardDir(status: CapsuleStatus, day: string): string {
  return `${INDEX_DIR}/${status}/${day}`;
}

/**
 * The shard holding the capsules of one derived status created on one UTC day by one author:
 * `index/<status>/<yyyy-mm-dd>/<author key>`. A capsule without an author (an older writer's)
 * goes to `unknown`.
 */
export function shardPath(status: CapsuleStatus, day: string, author: string | undefined): string {
  return `${dayShardDir(status, day)}/${authorKey(author)}`;
}

/** The shard of an entry (its status, the day of its sort key, its author). */
export function entryShardPath(entry: Pick<IndexEntry, 'status' | 'sortKey' | 'author'>): string {
  return shardPath(entry.status, dayOfSortKey(entry.sortKey), entry.author);
}

/**
 * An author as a file name: letters, digits, `.`, `_`, `-` (anything else one `_`), no leading
 * dot or dash, bounded; `unknown` when nothing is left. Two authors that map to one key share a
 * shard, which costs nothing but its size: every line names its capsule.
 */
export function authorKey(author: string | undefined): string {
  const clean = (author ?? '').replace(/[^0-9A-Za-z._-]+/g, '_').replace(/^[.-]+/, '').slice(0, AUTHOR_KEY_MAX);
  return clean === '' ? 'unknown' : clean;
}

/** The UTC day (`yyyy-mm-dd`) of a sort key such as `20261129T211500123Z`. */
export function dayOfSortKey(sortKey: string): string {
  const date = sortKey.slice(0, sortKey.indexOf('T') < 0 ? 8 : sortKey.indexOf('T'));
  return `${date.slice(0, -4)}-${date.slice(-4, -2)}-${date.slice(-2)}`;
}

/** One index line for an entry. */
export function encodeIndexLine(entry: IndexEntry): string {
  const data: Record<string, string | true> = { createdAt: entry.createdAt };
  if (entry.trigger !== undefined) data.trigger = entry.trigger;
  if (entry.sessionId !== undefined) data.sessionId = entry.sessionId;
  if (entry.objective !== undefined) data.objective = boundObjective(entry.objective);
  if (entry.autosaveTag) data.autosave = true;
  for (const key of IDENTITY_KEYS) if (entry[key] !== undefined) data[key] = bound(entry[key]!);
  return `${entry.sortKey}_${entry.id}\t${JSON.stringify(data)}`;
}

/** Parses a shard blob into entries, oldest first; malformed lines are skipped (the index is derived). */
export function parseShard(text: string, status: CapsuleStatus): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    const sep = line.indexOf('_');
    if (tab < 0 || sep < 0 || sep > tab) continue;
    try {
      const data = JSON.parse(line.slice(tab + 1)) as Record<string, unknown>;
      const id = line.slice(sep + 1, tab);
      // The index is tip-tree data another machine may have pushed: an id that could never have
      // been written (isSafeId) is a forged line, and it must not reach a listing or the agent.
      if (!isSafeId(id)) continue;
      const entry: IndexEntry = { id, status, createdAt: String(data.createdAt), sortKey: line.slice(0, sep), path: capsulePath(id) };
      if (typeof data.trigger === 'string') entry.trigger = data.trigger;
      if (typeof data.objective === 'string') entry.objective = data.objective;
      if (typeof data.sessionId === 'string') entry.sessionId = data.sessionId;
      if (data.autosave === true) entry.autosaveTag = true;
      for (const key of IDENTITY_KEYS) if (typeof data[key] === 'string') entry[key] = bound(data[key] as string);
      entries.push(entry);
    } catch {
      continue; // a damaged line costs one entry, never the listing; rebuildIndex repairs it
    }
  }
  return entries;
}

/** A shard with the line of `id` removed and `line` (if any) inserted in order; null when empty. */
export function replaceShardLine(text: string | null, id: string, line: string | null): string | null {
  const lines = (text ?? '').split('\n').filter((l) => l !== '' && !l.includes(`_${id}\t`));
  if (line !== null) lines.push(line);
  lines.sort();
  return lines.length === 0 ? null : `${lines.join('\n')}\n`;
}

/** Zero counts for every status. */
export function emptyCounts(): StatusCounts {
  return Object.fromEntries(STATUSES.map((s) => [s, 0])) as StatusCounts;
}

/** The counts blob. */
export function encodeCounts(counts: StatusCounts): string {
  return `${JSON.stringify({ format: INDEX_FORMAT, counts })}\n`;
}

/** Parses the counts blob; null when it is not one (then callers rebuild from the shards). */
export function parseCounts(text: string): StatusCounts | null {
  try {
    const data = JSON.parse(text) as { format?: unknown; counts?: Record<string, unknown> };
    if ((data.format !== INDEX_FORMAT && data.format !== DAY_BLOB_FORMAT) || typeof data.counts !== 'object' || data.counts === null) return null;
    const counts = emptyCounts();
    for (const s of STATUSES) {
      const n = data.counts[s];
      if (typeof n === 'number' && Number.isInteger(n) && n >= 0) counts[s] = n;
    }
    return counts;
  } catch {
    return null;
  }
}

/** Every index file, computed from scratch from the capsules' entries (path → content). */
export function buildIndexFiles(entries: readonly IndexEntry[]): Map<string, string> {
  const shards = new Map<string, string[]>();
  const counts = emptyCounts();
  for (const e of entries) {
    counts[e.status] += 1;
    const path = entryShardPath(e);
    const lines = shards.get(path) ?? [];
    lines.push(encodeIndexLine(e));
    shards.set(path, lines);
  }
  const files = new Map<string, string>([[COUNTS_PATH, encodeCounts(counts)]]);
  for (const [path, lines] of [...shards].sort(([a], [b]) => (a < b ? -1 : 1))) files.set(path, `${lines.sort().join('\n')}\n`);
  return files;
}

/** Newest first, by UTC sort key then id. */
export function compareNewestFirst(a: IndexEntry, b: IndexEntry): number {
  const ka = `${a.sortKey}_${a.id}`;
  const kb = `${b.sortKey}_${b.id}`;
  return ka < kb ? 1 : ka > kb ? -1 : 0;
}

/** An identity value as the index keeps it: one line, bounded (a pushed index is another writer's data). */
function bound(value: string): string {
  const line = value.replace(/[\s\u2028\u2029\u0085]+/g, ' ').trim();
  return line.slice(0, IDENTITY_MAX);
}

function boundObjective(objective: string): string {
  const line = objective.replace(/[\s\u2028\u2029\u0085]+/g, ' ').trim();
  return line.length > OBJECTIVE_MAX ? `${line.slice(0, OBJECTIVE_MAX)}…` : line;
}
