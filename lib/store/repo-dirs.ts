import { resolve } from 'node:path';
import { CapsuleError, isCapsuleError } from '../errors/capsule-error';
import type { GitRunner } from './git-runner';

/** Where a repository lives: its top level (the git dir when bare), git dir and common dir. */
export interface RepoDirs {
  repoDir: string;
  gitDir: string;
  commonDir: string;
  bare: boolean;
}

/**
 * Finds the repository containing the runner's cwd with one `rev-parse` (linked worktrees
 * report the main repository's common dir). Throws NOT_A_REPO, GIT_MISSING, GIT_FAILED.
 */
export async function discoverRepo(git: GitRunner): Promise<RepoDirs> {
  let stdout: string;
  try {
    ({ stdout } = await git.run(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-cdup']));
  } catch (err) {
    if (isCapsuleError(err, 'GIT_FAILED') && /not a git repository/i.test(String(err.data.stderr))) {
      throw new CapsuleError('NOT_A_REPO', `${git.cwd} is not inside a git repository; run git-capsule from a project checkout (or git init first)`, { cwd: git.cwd }, { cause: err });
    }
    throw err;
  }
  const [gitDir = '', commonDir = '', bareText = 'false', cdup] = stdout.split('\n');
  const bare = bareText.trim() === 'true';
  const repoDir = bare ? gitDir : cdup === undefined ? git.cwd : resolve(git.cwd, cdup);
  return { repoDir, gitDir, commonDir, bare };
}
