import { resolve } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';
import { gitFailed, type GitRunner } from './git-runner';
import { runGitSync } from './git-sync';

/** Where a repository lives: its top level (the git dir when bare), git dir and common dir. */
export interface RepoDirs {
  repoDir: string;
  gitDir: string;
  commonDir: string;
  bare: boolean;
}

/**
 * Bound on this synchronous call. It blocks the event loop, so a hook's fail-open timer cannot
 * fire while it waits: it must end well inside the shortest hook budget (SessionEnd: 1 s of 2 s
 * is the host's; the others 3–7 s). A healthy rev-parse answers in ~5 ms.
 */
const SYNC_TIMEOUT_MS = 2500;

/** The one rev-parse that answers all four (linked worktrees report the main repository's common dir). */
export const REV_PARSE_DIRS: readonly string[] = ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-cdup'];

/**
 * Finds the repository containing the runner's cwd. Synchronous on purpose: only callers
 * that need the directories (the state dir, the write lock) pay for this git call, on first
 * use. Throws NOT_A_REPO, GIT_MISSING, GIT_FAILED.
 */
export function discoverRepoSync(git: GitRunner): RepoDirs {
  const out = runGitSync(REV_PARSE_DIRS, { cwd: git.cwd, env: git.env, timeoutMs: SYNC_TIMEOUT_MS, okExitCodes: [128] });
  if (out.exitCode !== 0) {
    if (/not a git repository/i.test(out.stderr)) {
      throw new CapsuleError('NOT_A_REPO', `${git.cwd} is not inside a git repository; run git-capsule from a project checkout (or git init first)`, { cwd: git.cwd, stderr: out.stderr });
    }
    throw gitFailed(REV_PARSE_DIRS, out.exitCode, out.stderr);
  }
  return parseRepoDirs(out.stdout, git.cwd);
}

/** The directories from the output of `git <REV_PARSE_DIRS>` run in `cwd`. */
export function parseRepoDirs(stdout: string, cwd: string): RepoDirs {
  const [gitDir = '', commonDir = '', bareText = 'false', cdup] = stdout.split('\n');
  const bare = bareText.trim() === 'true';
  const repoDir = bare ? gitDir : cdup === undefined ? cwd : resolve(cwd, cdup);
  return { repoDir, gitDir, commonDir, bare };
}
