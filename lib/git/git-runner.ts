import type { ChildProcess } from 'node:child_process';
import { CapsuleError } from '../errors/capsule-error';
import { WRITE_CONFIG, gitEnv } from './git-env';
import { childProcess } from './lazy-modules';
import { gitOwnsGroup, killGroup, killTree } from './process-tree';

/** What one git call returned. */
export interface GitOutput {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Options of one git call. */
export interface GitCallOptions {
  /** Written to git's standard input, then closed. */
  input?: string | Buffer;
  /** Killed (SIGKILL) and reported as GIT_TIMEOUT past this; default 30 s. */
  timeoutMs?: number;
  /** Exit codes that are answers, not failures (e.g. 1 for `config --get` of a missing key). */
  okExitCodes?: readonly number[];
  /** Variables set for this call only, over the runner's environment. */
  env?: NodeJS.ProcessEnv;
  /**
   * Runs once the input is handed to git (an input that fits the pipe, as a commit's does, is
   * already with git), before the call settles: work that need not wait for git's answer fills
   * the wait. Must not throw (a throw fails the call).
   */
  whileRunning?: () => void;
  /**
   * Stops git (SIGKILL; in a hook, its process group) once this says the output so far, up to its
   * last complete line, answers the call: the call then resolves with that output and exit code
   * 0, as if git had ended there. For a read whose answer comes early in a long walk (`git log`
   * of a long branch); called on every chunk, so it must be cheap and must not throw.
   */
  until?: (stdout: string) => boolean;
}

/** Runs git in one repository. Tests replace it to assert the exact arguments. */
export interface GitRunner {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  run(args: readonly string[], opts?: GitCallOptions): Promise<GitOutput>;
  /** Starts git detached and does not wait (housekeeping such as `gc --auto`); absent in test doubles. */
  background?(args: readonly string[]): void;
}


/** The git processes this process started and still waits for. */
const running = new Set<ChildProcess>();
/** Readers whose input was closed and that are no longer waited for (releaseGitChild). */
const released = new Set<ChildProcess>();

/**
 * Ends every git this process still waits for, with everything each started (SIGKILL). A hook
 * calls it as it exits: one that gave up on a hung git at its budget must not leave it running.
 * A released reader, already on its way out, gets the signal alone: finding what a process
 * started walks the whole process table, and it started nothing.
 */
export function endGitChildren(): void {
  for (const child of running) if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) killTree(child.pid, { group: groupLed.has(child) });
  running.clear();
  for (const child of released) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (child.pid !== undefined && groupLed.has(child)) killGroup(child.pid);
  }
  released.clear();
}

/** Children started as leaders of their own process group (startGitInOwnGroups): ending one ends its group. */
const groupLed = new WeakSet<ChildProcess>();

/** The spawn options every git child shares: its own process group in a hook (lib/git/process-tree.ts). */
export function gitSpawnGroup(): { detached: boolean } {
  return { detached: gitOwnsGroup() };
}

/** Notes that `child` leads its own group when it was started so. */
function noteGroup(child: ChildProcess, spawned: { detached: boolean }): void {
  if (spawned.detached) groupLed.add(child);
}

/**
 * Stops waiting for `child`, a long-lived reader (`cat-file --batch`) whose input was just
 * closed: it holds no lock and exits by itself once it has read the end of its input, so the
 * caller need not wait for that (a hook's process exits next); endGitChildren still signals it
 * at exit if it is somehow still there.
 */
export function releaseGitChild(child: ChildProcess): void {
  if (!running.delete(child)) return;
  released.add(child);
  child.once('close', () => released.delete(child));
}

/** Counts `child` (a long-lived git such as `cat-file --batch`) among those `endGitChildren` ends, until it closes. */
export function trackGitChild(child: ChildProcess, spawned: { detached: boolean } = { detached: false }): void {
  noteGroup(child, spawned);
  running.add(child);
  child.once('close', () => running.delete(child));
}

/** Default bound of one git call: generous, since only a stuck lock or disk gets near it. */
export const DEFAULT_GIT_TIMEOUT_MS = 30_000;

/**
 * A runner that spawns the real `git` with an argument array (never a shell).
 * Errors are translated here: GIT_MISSING (no git on PATH), GIT_TIMEOUT, GIT_FAILED
 * (data: args, exitCode, stderr).
 */
export function createGitRunner(opts: { cwd: string; env?: NodeJS.ProcessEnv }): GitRunner {
  const env = gitEnv(opts.env ?? process.env);
  return {
    cwd: opts.cwd,
    env,
    run: (args, callOpts = {}) => runGit(opts.cwd, env, args, callOpts),
    background: (args) => runDetached(opts.cwd, env, args),
  };
}

function runDetached(cwd: string, env: NodeJS.ProcessEnv, args: readonly string[]): void {
  const child: ChildProcess = childProcess().spawn('git', [...WRITE_CONFIG, ...args], { cwd, env, stdio: 'ignore', detached: true, windowsHide: true });
  // Housekeeping only: a failed `gc --auto` costs disk space, never a capsule, and the next write retries it.
  child.on('error', () => undefined);
  child.unref();
}

function runGit(cwd: string, env: NodeJS.ProcessEnv, args: readonly string[], opts: GitCallOptions): Promise<GitOutput> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const call = new Promise<GitOutput>((resolve, reject) => {
    const group = gitSpawnGroup();
    const child = childProcess().spawn('git', args as string[], { cwd, env: opts.env ? { ...env, ...opts.env } : env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, ...group });
    noteGroup(child, group);
    running.add(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let answered = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // git and whatever it started (an alias, a credential helper), which may hold a ref lock.
      if (child.pid !== undefined) killTree(child.pid, { group: group.detached });
      else child.kill('SIGKILL');
      // A grandchild that escaped may keep the pipes open: stop waiting for them.
      child.stdout.destroy();
      child.stderr.destroy();
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      stdout += s;
      if (answered || opts.until === undefined || !opts.until(stdout.slice(0, stdout.lastIndexOf('\n') + 1))) return;
      answered = true;
      stdout = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
      // Not killTree: walking the process table costs more CPU than the rest of the walk would.
      // A hook's git leads its own group (a gpg it is running goes with it); the CLI's goes alone.
      if (child.pid !== undefined && group.detached) killGroup(child.pid);
      else child.kill('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
    });
    child.stderr.on('data', (s: string) => (stderr += s));
    child.on('error', (e: NodeJS.ErrnoException) => {
      running.delete(child);
      clearTimeout(timer);
      reject(translateSpawnError(e, args, cwd));
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      clearTimeout(timer);
      if (answered) {
        resolve({ stdout, stderr, exitCode: 0 });
        return;
      }
      if (timedOut) {
        reject(new CapsuleError('GIT_TIMEOUT', `git ${args[0] ?? ''} did not finish within ${timeoutMs} ms and was killed; check for a stuck lock or a slow disk`, { args: [...args], timeoutMs, stderr }));
        return;
      }
      const exitCode = code ?? 128;
      if (exitCode === 0 || (opts.okExitCodes ?? []).includes(exitCode)) {
        resolve({ stdout, stderr, exitCode });
        return;
      }
      reject(gitFailed(args, exitCode, stderr, signal));
    });
    // git may exit before reading all input (e.g. a failed fast-import); EPIPE then is not the error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
  opts.whileRunning?.();
  return call;
}

/** The GIT_FAILED error for a call that exited non-zero. */
export function gitFailed(args: readonly string[], exitCode: number, stderr: string, signal?: NodeJS.Signals | null): CapsuleError {
  // git's fatal/error line says what went wrong; hints and advice follow it.
  const lines = stderr.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  const said = lines.find((l) => /^(fatal|error): /.test(l)) ?? lines[lines.length - 1] ?? '';
  return new CapsuleError(
    'GIT_FAILED',
    `git ${args.filter((a) => !a.includes('=')).slice(0, 3).join(' ')} failed with exit ${exitCode}${signal ? ` (${signal})` : ''}: ${said ? `git said "${said}"` : 'no message'}; check the repository (git status, git fsck) and run it again; CAPSULE_DEBUG=1 prints git's whole message`,
    { args: [...args], exitCode, stderr },
  );
}

/** Maps a spawn failure: ENOENT is GIT_MISSING (install git or fix PATH). */
export function translateSpawnError(e: NodeJS.ErrnoException, args: readonly string[], cwd: string): CapsuleError {
  if (e.code === 'ENOENT') {
    return new CapsuleError('GIT_MISSING', `git was not found on PATH (or the directory ${cwd} does not exist); install git ≥ 2.30 and make sure it is on PATH`, { args: [...args], cwd }, { cause: e });
  }
  return new CapsuleError('GIT_FAILED', `git could not be started: ${e.message}`, { args: [...args], cwd, exitCode: null, stderr: '' }, { cause: e });
}
