import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Where a hook found the repository's shared git dir, and its runtime state dir (DESIGN §4). */
export interface RuntimeLocation {
  /** This worktree's git dir (HEAD lives here); null outside a repository. */
  gitDir: string | null;
  /** `git rev-parse --git-common-dir`, absolute; null outside a repository. */
  commonDir: string | null;
  /** `<commonDir>/capsule`, or `CAPSULE_STATE_DIR` when set; null when neither is known. */
  runtimeDir: string | null;
}

/**
 * Finds the git common dir by reading `.git` files the way git does (a directory, a
 * `gitdir:` pointer for linked worktrees and submodules, then `commondir`), without spawning
 * git: a hook that runs on every prompt cannot afford a process start just to learn where
 * its state lives. `GIT_DIR` wins when set.
 */
export function locateRuntime(cwd: string, env: NodeJS.ProcessEnv): RuntimeLocation {
  const gitDir = env.GIT_DIR ? resolve(cwd, env.GIT_DIR) : findGitDir(resolve(cwd));
  const commonDir = gitDir === null ? null : readCommonDir(gitDir);
  const override = env.CAPSULE_STATE_DIR;
  const runtimeDir = override ? resolve(override) : commonDir === null ? null : join(commonDir, 'capsule');
  return { gitDir, commonDir, runtimeDir };
}

function findGitDir(start: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const found = gitDirAt(dotGit);
    if (found !== null) return found;
    if (dirname(dir) === dir) return null;
  }
}

function gitDirAt(dotGit: string): string | null {
  let stat;
  try {
    stat = statSync(dotGit);
  } catch {
    return null;
  }
  if (stat.isDirectory()) return dotGit;
  if (!stat.isFile()) return null;
  // A linked worktree or submodule: `.git` is a file `gitdir: <path>`, relative to its folder.
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
  return match?.[1] ? resolve(dirname(dotGit), match[1]) : null;
}

function readCommonDir(gitDir: string): string {
  const pointer = join(gitDir, 'commondir');
  if (!existsSync(pointer)) return gitDir;
  return resolve(gitDir, readFileSync(pointer, 'utf8').trim());
}
