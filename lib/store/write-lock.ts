import { join } from 'node:path';
import { STATE_FILES, statePath } from '../local-state/state-files';

/**
 * node:fs/promises, loaded on the first contended write: loading it costs ~2 ms at every process
 * start, and a lone writer never takes the lock. A plain require, not `await import()`: the hook
 * launcher runs bundles through vm.Script, which has no dynamic-import callback.
 */
function fsp(): typeof import('node:fs/promises') {
  // A lazy require: this module must not load at start.
  return require('node:fs/promises') as typeof import('node:fs/promises');
}

/** How long a writer waits for the lock, and when a lock left by a dead writer counts as stale. */
export const WRITE_LOCK = { waitMs: 10_000, staleMs: 15_000 } as const;

/** Releases a held lock (idempotent). */
export type ReleaseLock = () => Promise<void>;

/** The lock file of one memory ref: `<state dir>/locks/<common dir and ref, as a file name>.lock`. */
export function writeLockPath(stateDir: string, commonDir: string, ref: string): string {
  // A readable name rather than a hash: loading node:crypto would cost every process start.
  const key = `${commonDir}:${ref}`.replace(/[^0-9A-Za-z._-]+/g, '_').slice(-150);
  return statePath(stateDir, STATE_FILES.locks, `${key}.lock`);
}

/**
 * Serialises local writers of one memory ref, so 8 racing processes queue instead of
 * repeatedly losing the compare-and-swap and redoing their work. Advisory only: correctness
 * comes from the compare-and-swap, so when the lock cannot be had (a read-only state dir, a
 * writer holding it past `waitMs`) the write proceeds without it. A lock whose writer died
 * (SIGKILL) is taken over once its pid is gone or it is older than `staleMs`.
 */
export async function acquireWriteLock(path: string, bounds: { waitMs: number; staleMs: number } = WRITE_LOCK): Promise<ReleaseLock> {
  const unlocked: ReleaseLock = async () => undefined;
  const { mkdir, open, unlink } = fsp();
  try {
    await mkdir(join(path, '..'), { recursive: true });
  } catch {
    return unlocked; // no writable state dir: the compare-and-swap alone keeps writes correct
  }
  const deadline = Date.now() + bounds.waitMs;
  for (let spin = 0; Date.now() < deadline; spin += 1) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(`${process.pid} ${Date.now()}\n`);
      await handle.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await unlink(path).catch(() => undefined); // already taken over as stale: nothing to release
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return unlocked;
    }
    if (await isStale(path, bounds.staleMs)) {
      await unlink(path).catch(() => undefined);
      continue;
    }
    await new Promise((r) => setTimeout(r, 2 + Math.random() * Math.min(40, 4 + spin)));
  }
  return unlocked;
}

async function isStale(path: string, staleMs: number): Promise<boolean> {
  const { readFile, stat } = fsp();
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const pid = Number(text.split(' ')[0]);
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - info.mtimeMs > 1000;
    try {
      process.kill(pid, 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    return false; // vanished meanwhile: the next open will tell
  }
}
