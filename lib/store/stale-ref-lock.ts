// Synchronous on purpose: one stat and one unlink on a rare path, and node:fs/promises would cost
// ~2 ms to load at every process start.
import { statSync, unlinkSync } from 'node:fs';

/**
 * A git ref lock (`refs/heads/capsules.lock`) older than this was left by a writer that died
 * (SIGKILL, a host timeout): git holds a ref lock for milliseconds and never removes another
 * process's lock, so without this every later write would fail until someone deletes it by hand.
 */
export const STALE_REF_LOCK_MS = 5000;

// git (LC_ALL=C, see git-env.ts) names the lock it could not take: Unable to create '<path>.lock': File exists.
const LOCK_IN_USE = /Unable to create '([^']+\.lock)': File exists/;

/**
 * Removes the git lock file named in a lost-race `reason` when it is older than
 * STALE_REF_LOCK_MS; true when it removed one (the caller retries at once). A young lock may
 * belong to a live git and is left alone. Never throws.
 */
export async function clearStaleRefLock(reason: string, now: () => number = Date.now): Promise<boolean> {
  const path = LOCK_IN_USE.exec(reason)?.[1];
  if (path === undefined) return false;
  try {
    if (now() - statSync(path).mtimeMs < STALE_REF_LOCK_MS) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false; // gone meanwhile: the retry will tell
  }
}
