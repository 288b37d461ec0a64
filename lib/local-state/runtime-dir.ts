import { walkToGitDir, type WalkedGitDir } from '../git/git-dir-walk';
import { resolveStateDir } from './state-dir';

/** Where a hook found the repository's shared git dir, and its runtime state dir (docs/hooks.md). */
export interface RuntimeLocation {
  /** This worktree's git dir (HEAD lives here); null outside a repository. */
  gitDir: string | null;
  /** `git rev-parse --git-common-dir`, absolute; null outside a repository. */
  commonDir: string | null;
  /** `<commonDir>/capsule`, or `CAPSULE_STATE_DIR` when set; null when neither is known. */
  runtimeDir: string | null;
  /** The walk itself (its `level` is the work tree's top), for the readers that need more of it; null outside a repository. */
  walked: WalkedGitDir | null;
}

/**
 * Finds the git common dir by reading `.git` files the way git does (lib/git/git-dir-walk.ts),
 * without spawning git: a hook that runs on every prompt cannot afford a process start just to
 * learn where its state lives. `GIT_DIR` wins when set.
 */
export function locateRuntime(cwd: string, env: NodeJS.ProcessEnv): RuntimeLocation {
  const walked = walkToGitDir(cwd, env);
  const runtimeDir = resolveStateDir({ env, commonDir: walked?.commonDir ?? null, workTree: walked?.level ?? null });
  return { gitDir: walked?.gitDir ?? null, commonDir: walked?.commonDir ?? null, runtimeDir, walked };
}
