import { readFileSync, statSync } from 'node:fs';
import type { RepoDirs } from './repo-dirs';

/** One remembered config read: for which repository and environment, from which files, and what it gave. */
export interface ConfigCacheEntry {
  /** cwd, the walk's level and real git dirs, and the environment fingerprint, as one string. */
  key: string;
  /** Each source file with its stat key (null: it did not exist). */
  files: Array<[string, string | null]>;
  values: Record<string, string>;
  /** What `git rev-parse` said about this cwd when the entry was made. */
  dirs: RepoDirs;
}

/** How many entries one cache file keeps (a CLI in a subfolder, hooks with another PATH, …). */
const MAX_ENTRIES = 8;
/**
 * 2: the values included core.sharedRepository and core.fsync (read by a direct committer since removed).
 * 3: and the remote names and `branch.<name>.remote` (an entry of format 2 would read as "no remote").
 */
const FORMAT = 3;

/**
 * The stat of a file as one string (mtime and ctime in ns, size, inode, device), null when it
 * does not exist, undefined when it cannot be known (then nothing may be cached or used).
 */
export function statKey(path: string): string | null | undefined {
  try {
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s === undefined ? null : `${s.mtimeNs}:${s.ctimeNs}:${s.size}:${s.ino}:${s.dev}`;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? null : undefined;
  }
}

/**
 * A source changed this close (ms) before the read may have changed again within one timestamp
 * tick, unseen: twice the tick plus clock slack. Whole-second timestamps (FAT: 2 s) get the long
 * window; nanosecond ones (ext4, APFS, NTFS; the kernel clock ticks in ≤ 10 ms) the short one.
 */
export const RACY_MS = { coarse: 5000, fine: 50 } as const;

/**
 * True when a file (by its stat key) changed so shortly before `startedAt` that a second change
 * within the same timestamp tick could go unseen: then its read must not be cached. The tick is
 * read from the ctime, which the kernel sets at the change itself: no sub-second part means
 * whole-second timestamps, which get the long window (an old ctime can be whole seconds on any
 * file system, images and archives carry them, so it is only judged when recent). `windowMs`
 * replaces both windows (tests).
 */
export function changedRecently(key: string | null, startedAt: number, windowMs?: number): boolean {
  if (key === null) return false;
  if (windowMs !== undefined) return changedSince(key, startedAt - windowMs);
  if (!changedSince(key, startedAt - RACY_MS.coarse)) return false;
  const [, ctimeNs = '0'] = key.split(':');
  return BigInt(ctimeNs) % 1_000_000_000n === 0n || changedSince(key, startedAt - RACY_MS.fine);
}

function changedSince(key: string, sinceMs: number): boolean {
  const [mtimeNs = '0', ctimeNs = '0'] = key.split(':');
  const since = BigInt(Math.floor(sinceMs)) * 1_000_000n;
  return BigInt(mtimeNs) >= since || BigInt(ctimeNs) >= since;
}

/**
 * The entry for `key` when every one of its files still has the stat it had when the entry was
 * made; null otherwise (a changed, created or deleted source means git must be asked again).
 */
export function lookupConfigCache(cacheFile: string, key: string): ConfigCacheEntry | null {
  const entry = readEntries(cacheFile).find((e) => e.key === key);
  if (!entry) return null;
  for (const [path, recorded] of entry.files) {
    if (statKey(path) !== recorded) return null;
  }
  return entry;
}

/**
 * Stores `entry` first, dropping an older entry with its key and the oldest past the limit,
 * through `write` (the runtime state dir's private writer, lib/local-state: 0600, atomic, never
 * through a link). Best effort.
 */
export function saveConfigCache(cacheFile: string, entry: ConfigCacheEntry, write: (path: string, text: string) => void): void {
  try {
    const entries = [entry, ...readEntries(cacheFile).filter((e) => e.key !== entry.key)].slice(0, MAX_ENTRIES);
    write(cacheFile, `${JSON.stringify({ format: FORMAT, entries })}\n`);
  } catch {
    // A read-only state dir only costs the next process one git config call.
  }
}

function readEntries(cacheFile: string): ConfigCacheEntry[] {
  try {
    const parsed = JSON.parse(readFileSync(cacheFile, 'utf8')) as { format?: unknown; entries?: unknown };
    return parsed.format === FORMAT && Array.isArray(parsed.entries) ? parsed.entries.filter(isEntry) : [];
  } catch {
    return [];
  }
}

function isEntry(value: unknown): value is ConfigCacheEntry {
  const e = value as Partial<ConfigCacheEntry> | null;
  return (
    typeof e === 'object' && e !== null && typeof e.key === 'string' && Array.isArray(e.files) &&
    e.files.every((f) => Array.isArray(f) && typeof f[0] === 'string' && (typeof f[1] === 'string' || f[1] === null)) &&
    typeof e.values === 'object' && e.values !== null && Object.values(e.values).every((v) => typeof v === 'string') &&
    typeof e.dirs === 'object' && e.dirs !== null && typeof e.dirs.repoDir === 'string' && typeof e.dirs.gitDir === 'string' && typeof e.dirs.commonDir === 'string' && typeof e.dirs.bare === 'boolean'
  );
}
