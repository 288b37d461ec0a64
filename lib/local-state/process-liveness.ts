import { processTable, type ProcessTable } from '../git/process-table';

/**
 * When process `pid` started, in the process table's own unit (Linux: clock ticks since boot,
 * field 22 of `/proc/<pid>/stat`; macOS and the BSDs: ps's lstart), or undefined where nothing
 * can be read (Windows) or no such process runs. Together with the pid it names one process: a
 * pid the kernel hands out again gets a different start.
 */
export function processStartOf(pid: number, table: ProcessTable = processTable()): string | undefined {
  return table.read(pid)?.start;
}

/**
 * True when process `pid` runs (not a zombie) and, when `start` is given and the system reports
 * one, is the same process that was recorded (not a later one that reuses the pid).
 * `kill(pid, 0)` sends nothing: EPERM means the process exists under another user.
 */
export function isProcessAlive(pid: number, start?: string, table: ProcessTable = processTable()): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const entry = table.read(pid);
  // A process that exited but was not yet reaped (a zombie) still answers kill(0): it is gone.
  if (entry?.state === 'Z' || entry?.state === 'X') return false;
  if (start === undefined) return true;
  return entry?.start === undefined || entry.start === start;
}
