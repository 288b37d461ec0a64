import { readdirSync, readFileSync } from 'node:fs';

// A git we give up on may have started its own children (an alias's shell, a credential helper,
// `git-remote-https`, a hook of the user's): killing git alone leaves them running, holding our
// pipes or a ref lock. They stay in the hook's process group (so a host that kills the group
// still ends them); to end one git with everything under it, its descendants are found through
// /proc before any is killed (once git dies they are re-parented and can no longer be told apart).

/** The pids descending from `pid` (children, their children, …), found in /proc; empty where there is no /proc. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(name);
    if (parent === null) continue;
    const list = children.get(parent);
    if (list) list.push(Number(name));
    else children.set(parent, [Number(name)]);
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
 * Kills `pid` and every process under it with SIGKILL; a process already gone is skipped. The
 * tree is listed before any kill, and `pid` dies first: killed after its children, a git (or a
 * script standing in for it) that waits on them could exit 0 in between, and its caller would
 * read a killed call as a success with empty output.
 */
export function killTree(pid: number, kill: (pid: number, signal: NodeJS.Signals) => void = process.kill): void {
  for (const target of [pid, ...descendantsOf(pid)]) {
    try {
      kill(target, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

function parentOf(pid: string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}
