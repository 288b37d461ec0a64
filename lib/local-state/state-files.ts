import { closeSync, constants, fstatSync, ftruncateSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** One kind of file git-capsule keeps in the runtime state dir. */
export interface StateFile {
  /** Relative to the state dir; a folder ends with `/` and holds one file per session (or per lock). */
  path: string;
  /** When pruning removes it (DAY-based ages are checked by `pruneLocalState`); absent: it is rewritten in place. */
  maxAgeMs?: number;
  /** Names inside a folder that pruning keeps whatever their age. */
  keep?: readonly string[];
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Every file under `<git common dir>/capsule/`, in one table, each row under a comment saying
 * what it holds and who writes it (comments, not strings: every hook's bundle carries this
 * table, and the one before each prompt has a size bound). A new kind of local
 * state gets a row here, and `pruneLocalState` bounds it (test/local-state/state-files.test.ts
 * fails on a file the hooks leave that no row declares). Never committed, never pushed.
 */
export const STATE_FILES = {
  // Which session the last SessionStart saw (the resume cross-checks it).
  bootReceipt: { path: 'boot-receipt.json' },
  // Left by PreCompact for the session that continues after compaction.
  compactMarker: { path: 'compact-marker.json', maxAgeMs: DAY_MS },
  // One coded line per hook failure or finding; trimmed to its newest 256 KiB past 1 MiB.
  errorLog: { path: 'errors.log' },
  // The git config values and directories, reused while the config files keep their stat.
  configCache: { path: 'git-config.json' },
  // Each session's transcript cursor, autosave id and document, parent link, the extraction's carry
  // (open failures), its last checkpoint, and the prompts UserPromptSubmit recorded
  // (<id>.prompts.json); the resume a PreCompact left for a host that runs nothing after compaction
  // (<id>.pending-context.json, taken by the next prompt).
  sessions: { path: 'sessions/', maxAgeMs: 30 * DAY_MS },
  // Each session's budget flags (warned, blocked, window ordinal, cached points) and the cap.
  budget: { path: 'budget/', maxAgeMs: 30 * DAY_MS, keep: ['cap.json'] },
  // The advisory write lock of each memory ref (stale after 15 s).
  locks: { path: 'locks/', maxAgeMs: DAY_MS },
  // Each client process's hand-over record (`<host>-<signal>.json`, e.g. claude-<CLAUDE_PID>): its
  // live session, the sessions before it, the hand-over a /clear or compaction left.
  lineage: { path: 'lineage/', maxAgeMs: 14 * DAY_MS },
  // Capsule folders per month tree of the memory branch (by tree id), so a resume sees capsules
  // missing from the index reading one month.
  capsuleCounts: { path: 'capsule-counts.json', maxAgeMs: 30 * DAY_MS },
  // This clone's random machine id (m-<ULID>), stamped as `machine` on every capsule written here;
  // made once, never changed.
  machineId: { path: 'machine-id' },
  // This clone's private seal key (32 random bytes, hex, 0600): the HMAC key of every capsule's
  // `seal`; made once, never committed, never leaves the machine.
  sealKey: { path: 'seal-key' },
  // When this clone sealed the capsules it wrote before seals existed (its local history of the
  // memory ref says which), so it happens once; or its last failed try, so the next waits 1 h,
  // doubling to a day.
  sealUpgrade: { path: 'seal-upgrade.json' },
  // Per hook route (plugin root or settings bundle): version and when each event last ran, for
  // doctor.
  lastRuns: { path: 'last-runs/', maxAgeMs: 30 * DAY_MS },
  // Each settings file install edited: its text before and after, so uninstall restores it byte for
  // byte.
  installRecord: { path: 'install-record.json' },
  // Each autosave a Stop hook is folding and committing (<session>.json: its pid, lineage, start
  // time), removed after the commit; stale once its process is gone or after 15 s.
  inFlight: { path: 'in-flight/', maxAgeMs: DAY_MS },
  // Each running `git capsule supervise`'s coordination phase, removed when it exits (a killed one's
  // after a day).
  supervise: { path: 'supervise/', maxAgeMs: DAY_MS },
} as const satisfies Record<string, StateFile>;

/** The path of a state file or folder entry. */
export function statePath(runtimeDir: string, file: StateFile, name?: string): string {
  return name === undefined ? join(runtimeDir, file.path) : join(runtimeDir, file.path, name);
}

/** Past this the error log is cut down to its newest part. */
export const ERROR_LOG_MAX_BYTES = 1024 * 1024;
const ERROR_LOG_KEEP_BYTES = 256 * 1024;
/** A temp file of an atomic write whose writer was killed. */
const TEMP_MAX_AGE_MS = 3600 * 1000;

/**
 * Bounds the runtime dir (SessionEnd calls it): per-session files untouched for their row's
 * `maxAgeMs` are removed, the error log is trimmed, and temp files of killed writers go. Best
 * effort, never throws; returns how many files it removed.
 */
export function pruneLocalState(runtimeDir: string, now: Date): number {
  let removed = 0;
  for (const file of Object.values(STATE_FILES) as StateFile[]) {
    if (file.maxAgeMs === undefined) continue;
    if (file.path.endsWith('/')) {
      for (const name of list(statePath(runtimeDir, file))) {
        if (file.keep?.includes(name)) continue;
        if (removeIfOlder(join(runtimeDir, file.path, name), now, name.endsWith('.tmp') ? Math.min(file.maxAgeMs, TEMP_MAX_AGE_MS) : file.maxAgeMs)) removed += 1;
      }
    } else if (removeIfOlder(statePath(runtimeDir, file), now, file.maxAgeMs)) removed += 1;
  }
  for (const name of list(runtimeDir)) if (name.endsWith('.tmp') && removeIfOlder(join(runtimeDir, name), now, TEMP_MAX_AGE_MS)) removed += 1;
  trimErrorLog(statePath(runtimeDir, STATE_FILES.errorLog));
  return removed;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function removeIfOlder(path: string, now: Date, maxAgeMs: number): boolean {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || now.getTime() - stat.mtimeMs <= maxAgeMs) return false;
    rmSync(path, { force: true });
    return true;
  } catch {
    return false; // raced with another hook
  }
}

/** Keeps the newest ERROR_LOG_KEEP_BYTES, from a line start, once the log passes ERROR_LOG_MAX_BYTES. */
function trimErrorLog(path: string): void {
  let fd: number | undefined;
  try {
    // Never through a link planted in the log's place: truncating it would cut someone else's file.
    fd = openSync(path, constants.O_RDWR | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size <= ERROR_LOG_MAX_BYTES) return;
    const size = stat.size;
    // Uint8Array rather than Buffer: @types/node 20.9 and TypeScript 5.9 disagree about Buffer's ArrayBuffer.
    const tail = new Uint8Array(ERROR_LOG_KEEP_BYTES);
    const n = readSync(fd, tail, 0, tail.length, size - tail.length);
    const start = tail.subarray(0, n).indexOf(10) + 1;
    const kept = tail.subarray(start, n);
    writeSync(fd, kept, 0, kept.length, 0);
    ftruncateSync(fd, kept.length);
  } catch {
    // Another hook appending at the same moment loses nothing worse than a line.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
