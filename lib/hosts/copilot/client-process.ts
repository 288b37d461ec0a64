import type { LineageSignal } from '../../local-state/lineage-signal';
import { readCmdline, readProcStat, type ProcStat } from '../process-ancestry';

// A hook runs as `bash -c "<command>"` under the client; bash usually execs node. A verb the
// model runs sits lower: node ← git ← (a wrapper) ← the bash tool's shell ← the client.
const MAX_LEVELS = 6;

/**
 * The Copilot client process a hook runs under: the nearest ancestor whose program is the
 * native `copilot` binary (its comm is `MainThread`, so the command line names it; the npm
 * launcher above it is `node …/.bin/copilot`, whose program is node), or null.
 */
export function copilotClientProcess(
  ppid: number,
  read: (pid: number) => ProcStat | null = readProcStat,
  cmdline: (pid: number) => string[] | null = readCmdline,
): ProcStat | null {
  let pid = ppid;
  for (let level = 0; level < MAX_LEVELS && pid > 1; level++) {
    const stat = read(pid);
    if (stat === null) return null;
    const program = cmdline(pid)?.[0] ?? '';
    if (/(?:^|[/\\])copilot(?:\.exe)?$/.test(program)) return stat;
    pid = stat.ppid;
  }
  return null;
}

/**
 * Copilot's lineage signal (LineageSignal): the client process, by pid and start time. The
 * interactive client keeps one process across `/clear`, which ends the session (sessionEnd)
 * and starts a new id (sessionStart `new`, at the next prompt); two terminals are two
 * processes. Null when no ancestor is the client (then the resume scopes by worktree, branch
 * and author).
 */
export function copilotLineageSignal(ppid: number, read?: (pid: number) => ProcStat | null, cmdline?: (pid: number) => string[] | null): LineageSignal | null {
  if (!Number.isInteger(ppid) || ppid <= 1) return null;
  const client = copilotClientProcess(ppid, read, cmdline);
  return client === null ? null : { host: 'copilot', key: String(client.pid), pid: client.pid, processStart: client.startTicks };
}
