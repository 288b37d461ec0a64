import { readFileSync } from 'node:fs';

/**
 * When process `pid` started, in clock ticks since boot (field 22 of `/proc/<pid>/stat`), or
 * undefined where there is no /proc (macOS, Windows) or no such process. Together with the pid
 * it names one process: a pid the kernel hands out again gets a different start.
 */
export function processStartOf(pid: number): string | undefined {
  return procStat(pid)?.start;
}

/** State and start time from `/proc/<pid>/stat`, or undefined where there is none. */
function procStat(pid: number): { state: string; start?: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may itself hold spaces or ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return { state: fields[0] ?? '', ...(start !== undefined && /^\d+$/.test(start) ? { start } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * True when process `pid` runs (not a zombie) and, when `start` is given and the system reports
 * one, is the same process that was recorded (not a later one that reuses the pid).
 * `kill(pid, 0)` sends nothing: EPERM means the process exists under another user.
 */
export function isProcessAlive(pid: number, start?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  // A process that exited but was not yet reaped (a zombie) still answers kill(0): it is gone.
  if (stat?.state === 'Z' || stat?.state === 'X') return false;
  if (start === undefined) return true;
  return stat?.start === undefined || stat.start === start;
}
