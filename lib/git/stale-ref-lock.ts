// Synchronous on purpose: one stat and one unlink on a rare path, and node:fs/promises would cost
// ~2 ms to load at every process start.
import { statSync, unlinkSync } from 'node:fs';
import { normalize } from 'node:path';

/**
 * A git ref lock (`refs/heads/capsules.lock`) older than this was left by a writer that died
 * (SIGKILL, a host timeout): git holds a ref lock for milliseconds and never removes another
 * process's lock, so without this every later write would fail until someone deletes it by hand.
 */
export const STALE_REF_LOCK_MS = 5000;

// git (LC_ALL=C, see git-env.ts) names the lock it could not take: Unable to create '<path>.lock': File exists.
const LOCK_IN_USE = /Unable to create '([^']+\.lock)': File exists/;

/** The path of the git lock file a failure's text names (`Unable to create '<path>.lock': File exists`), else null. */
export function lockNamedIn(text: string): string | null {
  const path = LOCK_IN_USE.exec(text)?.[1];
  return path === undefined ? null : normalize(path); // git names a path remote's lock as <remote>/./refs/…
}

/** True when the lock file at `path` exists and was last touched STALE_REF_LOCK_MS or more before `nowMs`. */
export function isStaleLock(path: string, nowMs: number): boolean {
  try {
    return nowMs - statSync(path).mtimeMs >= STALE_REF_LOCK_MS;
  } catch {
    return false; // not there (any more), or not on this filesystem
  }
}

/**
 * Removes the git lock file named in a lost-race `reason` when it is older than
 * STALE_REF_LOCK_MS; true when it removed one (the caller retries at once). A young lock may
 * belong to a live git and is left alone. Never throws.
 */
export async function clearStaleRefLock(reason: string, now: () => number = Date.now): Promise<boolean> {
  const path = lockNamedIn(reason);
  if (path === null) return false;
  if (!isStaleLock(path, now())) return false;
  try {
    unlinkSync(path);
    return true;
  } catch {
    return false; // gone meanwhile: the retry will tell
  }
}

/** How often `waitOutRefLock` looks again at a young lock. */
const LOCK_POLL_MS = 100;

/**
 * Waits until the git lock file named in a failure `text` is gone (its owner finished) or stale
 * (then removes it, see clearStaleRefLock): true when the caller should try again, false when
 * the text names no lock or the lock could not be removed. Bounded by STALE_REF_LOCK_MS plus
 * one poll. Sync needs this where a write does not: a sync killed inside `git fetch` or `git
 * push` leaves the lock of the remote-tracking ref, or for a remote on this filesystem (a path
 * or file:// URL) the remote's own ref, whose receive-pack died in the same process group; git
 * never removes another process's lock, so without this every later sync would fail until
 * someone deleted it by hand. A lock named for a remote on another host is not on this
 * filesystem: stat fails and nothing is removed. Never throws.
 */
export async function waitOutRefLock(
  text: string,
  clock: { now: () => number; sleep: (ms: number) => Promise<void> } = { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
): Promise<boolean> {
  const path = lockNamedIn(text);
  if (path === null) return false;
  const deadline = clock.now() + STALE_REF_LOCK_MS + LOCK_POLL_MS;
  for (;;) {
    let ageMs: number;
    try {
      ageMs = clock.now() - statSync(path).mtimeMs;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT'; // released by its owner: try again
    }
    if (ageMs >= STALE_REF_LOCK_MS) return removeLock(path);
    if (clock.now() >= deadline) return false;
    await clock.sleep(Math.min(LOCK_POLL_MS, STALE_REF_LOCK_MS - ageMs));
  }
}

/** Removes a lock file; true when it is gone (removed here, or by its owner meanwhile). */
function removeLock(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
