import { readdirSync, readFileSync } from 'node:fs';
import { childProcess } from './lazy-modules';

// The one place that asks the system about other processes (lineage, liveness, the cleanup of
// a git given up on). Linux has /proc; macOS and the BSDs have none, but have ps (POSIX options
// only: -A, -p, -o); Windows has neither, so there the answers are "unknown" and each caller
// falls back to what the host itself passes (docs/hosts.md, "Platforms"). Tests pick a source
// with setProcessTable, or a hook process with CAPSULE_PROCESS_TABLE=proc|ps|none, so the ps
// path runs for real on Linux with /proc hidden.

/** One process as the system describes it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** The executable's name (a path's last part; Linux cuts it to 15 characters). */
  comm: string;
  /** When it started, in the source's own unit (/proc: clock ticks since boot; ps: its lstart text): with the pid, it names one process. */
  start: string;
  /** The state letter (R, S, Z…); Z: exited, not yet reaped. */
  state: string;
}

/** Where process facts come from. */
export interface ProcessTable {
  readonly source: 'proc' | 'ps' | 'none';
  /** One process, or null when it is gone or cannot be read. */
  read(pid: number): ProcessEntry | null;
  /** Every process's pid and parent, or null when they cannot be listed. */
  list(): Array<{ pid: number; ppid: number }> | null;
}

/** The /proc reader (Linux), rooted at `root`. */
export function procTable(root = '/proc'): ProcessTable {
  const read = (pid: number): ProcessEntry | null => {
    let text: string;
    try {
      text = readFileSync(`${root}/${pid}/stat`, 'utf8');
    } catch {
      return null;
    }
    // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the last ')'.
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    if (open === -1 || close < open) return null;
    const rest = text.slice(close + 2).split(' ');
    const ppid = Number(rest[1]);
    if (!Number.isInteger(ppid) || rest[19] === undefined) return null;
    return { pid, ppid, comm: text.slice(open + 1, close), start: rest[19], state: rest[0] ?? '' };
  };
  return {
    source: 'proc',
    read,
    list: () => {
      let names: string[];
      try {
        names = readdirSync(root);
      } catch {
        return null;
      }
      const out: Array<{ pid: number; ppid: number }> = [];
      for (const name of names) {
        if (!/^\d+$/.test(name)) continue;
        const entry = read(Number(name));
        if (entry !== null) out.push({ pid: entry.pid, ppid: entry.ppid });
      }
      return out;
    },
  };
}

// ps prints lstart in the C locale as `Sun Dec  6 03:15:25 2026`: five words, before comm (which may hold spaces).
const PS_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' };
const PS_TIMEOUT_MS = 1500;

/** The ps reader (macOS, the BSDs; Linux too, where tests run it for real). */
export function psTable(): ProcessTable {
  const ps = (args: string[]): string | null => {
    const r = childProcess().spawnSync('ps', args, { env: PS_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: PS_TIMEOUT_MS, windowsHide: true });
    return r.status === 0 && typeof r.stdout === 'string' ? r.stdout : null;
  };
  return {
    source: 'ps',
    read: (pid) => {
      if (!Number.isInteger(pid) || pid <= 0) return null;
      const out = ps(['-o', 'pid=,ppid=,stat=,lstart=,comm=', '-p', String(pid)]);
      const m = out === null ? null : /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\S+\s+\S+\s+\d+\s+[\d:]+\s+\d+)\s+(.*?)\s*$/m.exec(out);
      if (m === null || Number(m[1]) !== pid) return null;
      const comm = m[5]!.split('/').pop() ?? m[5]!;
      return { pid, ppid: Number(m[2]), state: m[3]!.charAt(0), start: m[4]!.replace(/\s+/g, ' '), comm };
    },
    list: () => {
      const out = ps(['-A', '-o', 'pid=,ppid=']);
      if (out === null) return null;
      return out.split('\n').flatMap((line) => {
        const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
        return m ? [{ pid: Number(m[1]), ppid: Number(m[2]) }] : [];
      });
    },
  };
}

/** No source (Windows): nothing can be read. */
export function noTable(): ProcessTable {
  return { source: 'none', read: () => null, list: () => null };
}

let chosen: ProcessTable | null = null;

/**
 * This system's process table: /proc where it exists, else ps on every platform but Windows,
 * else none. `CAPSULE_PROCESS_TABLE` (proc, ps, none) picks one, for tests of each path.
 */
export function processTable(env: NodeJS.ProcessEnv = process.env): ProcessTable {
  if (chosen !== null) return chosen;
  const forced = env.CAPSULE_PROCESS_TABLE;
  if (forced === 'proc' || forced === 'ps' || forced === 'none') chosen = forced === 'proc' ? procTable() : forced === 'ps' ? psTable() : noTable();
  else chosen = hasProc() ? procTable() : process.platform === 'win32' ? noTable() : psTable();
  return chosen;
}

/** Replaces the process table this process uses (null: pick again); for tests. */
export function setProcessTable(table: ProcessTable | null): void {
  chosen = table;
}

function hasProc(): boolean {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
}
