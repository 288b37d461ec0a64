import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';
import { gitFailed, translateSpawnError, type GitRunner } from './git-runner';

/** Where a repository lives: its top level (the git dir when bare), git dir and common dir. */
export interface RepoDirs {
  repoDir: string;
  gitDir: string;
  commonDir: string;
  bare: boolean;
}

/** The one rev-parse that answers all four (linked worktrees report the main repository's common dir). */
export const REV_PARSE_DIRS: readonly string[] = ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-cdup'];

/**
 * Finds the repository containing the runner's cwd. Synchronous on purpose: only callers
 * that need the directories (the state dir, the write lock) pay for this git call, on first
 * use. Throws NOT_A_REPO, GIT_MISSING, GIT_FAILED.
 */
export function discoverRepoSync(git: GitRunner): RepoDirs {
  let stdout: string;
  try {
    stdout = execFileSync('git', REV_PARSE_DIRS as string[], { cwd: git.cwd, env: git.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { status?: number | null; stderr?: string };
    if (e.code === 'ENOENT') throw translateSpawnError(e, REV_PARSE_DIRS, git.cwd);
    const stderr = String(e.stderr ?? '');
    if (/not a git repository/i.test(stderr)) {
      throw new CapsuleError('NOT_A_REPO', `${git.cwd} is not inside a git repository; run git-capsule from a project checkout (or git init first)`, { cwd: git.cwd }, { cause: err });
    }
    throw gitFailed(REV_PARSE_DIRS, e.status ?? 128, stderr);
  }
  const [gitDir = '', commonDir = '', bareText = 'false', cdup] = stdout.split('\n');
  const bare = bareText.trim() === 'true';
  const repoDir = bare ? gitDir : cdup === undefined ? git.cwd : resolve(git.cwd, cdup);
  return { repoDir, gitDir, commonDir, bare };
}
