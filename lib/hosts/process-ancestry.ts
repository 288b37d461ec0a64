import { readFileSync } from 'node:fs';
import { processTable } from '../git/process-table';

/** One process as the process table describes it (lib/git/process-table.ts). */
export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  /** Start time in the table's own unit (/proc: clock ticks since boot; ps: lstart): with the pid, it names one process even after pid reuse. */
  startTicks: string;
}

/** One process from the process table (lib/git/process-table.ts: /proc, else ps), or null (none can be read, or the process is gone). */
export function readProcStat(pid: number): ProcStat | null {
  const entry = processTable().read(pid);
  return entry === null ? null : { pid, comm: entry.comm, ppid: entry.ppid, startTicks: entry.start };
}

/** A process's arguments (/proc/<pid>/cmdline), or null when they cannot be read. */
export function readCmdline(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return text.split('\0').filter((a, i, all) => a !== '' || i < all.length - 1);
  } catch {
    return null;
  }
}
