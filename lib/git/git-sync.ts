import { CapsuleError } from '../errors/capsule-error';
import { gitEnv } from './git-env';
import { gitFailed, gitSpawnGroup, translateSpawnError, type GitOutput } from './git-runner';
import { killGroup } from './process-tree';
import { childProcess } from './lazy-modules';

/**
 * Runs one short git command synchronously, for the few callers that cannot be async (the
 * CLI's first look at a repository, a lazily needed rev-parse). It blocks the event loop, so a
 * hook's fail-open timer cannot fire while it waits: every call is bounded, well inside the
 * shortest hook budget. Throws GIT_MISSING, GIT_TIMEOUT, GIT_FAILED, like the async runner.
 */
export function runGitSync(args: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; okExitCodes?: readonly number[] }): GitOutput {
  const group = gitSpawnGroup();
  const r = childProcess().spawnSync('git', args as string[], { cwd: opts.cwd, env: gitEnv(opts.env), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: opts.timeoutMs, killSignal: 'SIGKILL', windowsHide: true, ...group });
  if (r.error) {
    const e = r.error as NodeJS.ErrnoException;
    if (e.code === 'ETIMEDOUT') {
      // spawnSync killed git alone: what it started is still in its group (in a hook, where it leads one).
      if (group.detached) killGroup(r.pid);
      throw new CapsuleError('GIT_TIMEOUT', `git ${args[0] ?? ''} did not finish within ${opts.timeoutMs} ms and was killed; check for a stuck lock or a slow disk`, { args: [...args], timeoutMs: opts.timeoutMs }, { cause: e });
    }
    throw translateSpawnError(e, args, opts.cwd);
  }
  const exitCode = r.status ?? 128;
  const out = { stdout: r.stdout ?? '', stderr: r.stderr ?? '', exitCode };
  if (exitCode === 0 || (opts.okExitCodes ?? []).includes(exitCode)) return out;
  throw gitFailed(args, exitCode, out.stderr, r.signal);
}
