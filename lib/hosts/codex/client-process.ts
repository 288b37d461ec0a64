import type { LineageSignal } from '../../local-state/lineage-signal';
import { readProcStat, type ProcStat } from '../process-ancestry';

export { readProcStat, type ProcStat } from '../process-ancestry';

// A hook runs as `$SHELL -lc "<command>"` under the client; the shell usually execs node, but
// a shell that does not (or a wrapper) adds a level or two. A verb the model runs sits lower
// still: node ← git ← (a `git-capsule` wrapper) ← the exec_command shell ← the client.
const MAX_LEVELS = 6;
// Codex runs sandboxed commands under a helper of its own name (`codex-linux-sandbox`, cut by
// the kernel to 15 characters in comm): a child of the client, not the client.
const SANDBOX_HELPER = /^codex-linux-sa/;

/**
 * The Codex client process a hook runs under: the nearest ancestor named `codex` (the native
 * binary; observed under `codex exec` and the TUI, where one process keeps its pid and start
 * time across `/clear`), or null.
 */
export function codexClientProcess(ppid: number, read: (pid: number) => ProcStat | null = readProcStat): ProcStat | null {
  let pid = ppid;
  for (let level = 0; level < MAX_LEVELS && pid > 1; level++) {
    const stat = read(pid);
    if (stat === null) return null;
    if (stat.comm === 'codex' || (stat.comm.startsWith('codex-') && !SANDBOX_HELPER.test(stat.comm))) return stat;
    pid = stat.ppid;
  }
  return null;
}

/**
 * Codex's lineage signal (LineageSignal): the client process a hook runs under, by pid and
 * start time. Codex gives a hook no session variable and runs no SessionEnd at a TUI `/clear`
 * (its reason is always `other`), but the TUI keeps one process across `/clear`, and two
 * sessions (two terminals, or a `codex exec` started from inside another session) are two
 * processes: the nearest `codex` ancestor is each hook's own client. The start time makes the
 * signal proof of "the same process" (lineage-record.ts takes the previous session of a proven
 * process). Without /proc (macOS, the BSDs) the same walk reads ps. Where no process can be read
 * at all (Windows) there is no signal: the hook's parent is a login shell started for that one
 * hook (`$SHELL -lc`, `cmd /c`), so keying on it would never match two hooks of one session;
 * the resume then scopes by worktree, branch and author. Null when no ancestor is the client.
 */
export function codexLineageSignal(ppid: number, read: (pid: number) => ProcStat | null = readProcStat): LineageSignal | null {
  if (!Number.isInteger(ppid) || ppid <= 1) return null;
  const client = codexClientProcess(ppid, read);
  return client === null ? null : { host: 'codex', key: String(client.pid), pid: client.pid, processStart: client.startTicks };
}

export { readCmdline } from '../process-ancestry';
