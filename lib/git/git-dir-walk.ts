import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Where a walk up from a directory found git's files, without starting git. */
export interface WalkedGitDir {
  /** This worktree's git dir (HEAD lives here). */
  gitDir: string;
  /** The shared git dir (refs, objects, config), absolute. */
  commonDir: string;
  /** The directory whose `.git` was found; null when `GIT_DIR` named the git dir. */
  level: string | null;
}

/**
 * Finds the git dir by reading `.git` entries the way git does (a directory, or a `gitdir:`
 * pointer for linked worktrees and submodules, then `commondir`), without spawning git: a hook
 * that runs on every prompt cannot afford a process start just to learn where its state lives.
 * `GIT_DIR` wins when set. Null when no `.git` is found up to the root.
 */
export function walkToGitDir(cwd: string, env: NodeJS.ProcessEnv): WalkedGitDir | null {
  if (env.GIT_DIR) {
    const gitDir = resolve(cwd, env.GIT_DIR);
    return { gitDir, commonDir: readCommonDir(gitDir), level: null };
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const gitDir = gitDirAt(join(dir, '.git'));
    if (gitDir !== null) return { gitDir, commonDir: readCommonDir(gitDir), level: dir };
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
