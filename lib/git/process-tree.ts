import { processTable, type ProcessTable } from './process-table';

// A git we give up on may have started its own children (an alias's shell, a credential helper,
// `git-remote-https`, a hook of the user's): killing git alone leaves them running, holding our
// pipes or a ref lock. In a hook every git is started as the leader of a process group of its
// own (POSIX; startGitInOwnGroups), so one signal to the group ends it with everything it started, even a child whose parent has
// already exited (re-parented, it is no longer anyone's descendant, but it is still in the
// group). Descendants that moved to a group of their own are found through the process table
// (process-table.ts: /proc, else ps) before any is killed. Windows has neither groups nor a
// table here: the child alone is killed.

/** The pids descending from `pid` (children, their children, …), from the process table; empty where it cannot be listed. */
export function descendantsOf(pid: number, table: ProcessTable = processTable()): number[] {
  const all = table.list();
  if (all === null) return [];
  const children = new Map<number, number[]>();
  for (const { pid: child, ppid } of all) {
    const list = children.get(ppid);
    if (list) list.push(child);
    else children.set(ppid, [child]);
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/**
 * Kills `pid`, its process group when it leads one (`group`), and every process under it, with
 * SIGKILL; a process already gone is skipped. The tree is listed before any kill, and `pid` dies
 * first: killed after its children, a git (or a script standing in for it) that waits on them
 * could exit 0 in between, and its caller would read a killed call as a success with empty output.
 */
export function killTree(pid: number, opts: { group?: boolean; kill?: (pid: number, signal: NodeJS.Signals) => void; table?: ProcessTable } = {}): void {
  const kill = opts.kill ?? process.kill;
  const below = descendantsOf(pid, opts.table);
  const targets = [pid, ...(opts.group && process.platform !== 'win32' ? [-pid] : []), ...below];
  for (const target of targets) {
    try {
      kill(target, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Ends the process group `pid` led (everything a finished git left behind in it); POSIX only. */
export function killGroup(pid: number, kill: (pid: number, signal: NodeJS.Signals) => void = process.kill): void {
  if (process.platform === 'win32' || !Number.isInteger(pid) || pid <= 0) return;
  try {
    kill(-pid, 'SIGKILL');
  } catch {
    // no such group: nothing was left
  }
}

let ownGroups = false;

/**
 * Starts every later git as the leader of a process group (a session) of its own, on POSIX: the
 * hooks do, since nothing they run may prompt; the CLI does not, since a new session has no
 * terminal and ssh or a credential helper could no longer ask for a passphrase there.
 */
export function startGitInOwnGroups(on = true): void {
  ownGroups = on && process.platform !== 'win32';
}

/** Whether gits started now lead a process group of their own (startGitInOwnGroups). */
export function gitOwnsGroup(): boolean {
  return ownGroups;
}
