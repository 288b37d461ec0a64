import { peekConfigSnapshot, readConfigSnapshot, type ConfigSnapshot } from '../git/config-snapshot';
import type { WalkedGitDir } from '../git/git-dir-walk';
import { gitEnv } from '../git/git-env';
import { createGitRunner, type GitRunner } from '../git/git-runner';
import { writePrivateFile } from './private-file';
import { resolveStateDir } from './state-dir';
import { STATE_FILES, statePath } from './state-files';

/**
 * The config values git-capsule reads (capsule.*, user.name, user.email) and the repository's
 * directories, through the cache in the runtime state dir (`git-config.json`): the one config
 * reader every store open, hook and verb uses. Throws GIT_FAILED, GIT_MISSING when git must be
 * asked and fails.
 */
export function readCachedConfig(git: GitRunner, opts: { racyMs?: number; walk?: WalkedGitDir | null } = {}): Promise<ConfigSnapshot> {
  return readConfigSnapshot(git, { ...opts, cacheFileOf: (where) => configCacheFile(git.env, where), writeCacheFile: writePrivateFile });
}

/**
 * A repository as one process found it: where the walk up from `cwd` led (lib/git/git-dir-walk.ts),
 * and its config, read on first use and shared by every later reader. A hook's runner finds it
 * once and hands it to the budget and the store, which would otherwise each walk and read again.
 */
export interface FoundRepository {
  readonly cwd: string;
  readonly walked: WalkedGitDir | null;
  /** The config snapshot (readCachedConfig), read once; a failed read fails every caller alike. */
  config(): Promise<ConfigSnapshot>;
}

/** The repository at `cwd` as `walked` found it; nothing is read until `config()` is called. */
export function foundRepository(cwd: string, env: NodeJS.ProcessEnv, walked: WalkedGitDir | null): FoundRepository {
  let reading: Promise<ConfigSnapshot> | undefined;
  return { cwd, walked, config: () => (reading ??= readCachedConfig(createGitRunner({ cwd, env }), { walk: walked })) };
}

/**
 * The cached config of the repository at `cwd`, without starting git; null on a miss. The
 * budget of UserPromptSubmit reads this: the hooks that run git (SessionStart, Stop) keep it fresh.
 */
export function peekCachedConfig(cwd: string, env: NodeJS.ProcessEnv): ConfigSnapshot | null {
  // Keyed by the environment git runs with, as the reader that filled the cache saw it.
  const gitVars = gitEnv(env);
  return peekConfigSnapshot({ cwd, env: gitVars }, { cacheFileOf: (where) => configCacheFile(env, where) });
}

function configCacheFile(env: NodeJS.ProcessEnv, where: { commonDir: string; workTree: string | null }): string | null {
  const dir = resolveStateDir({ env, ...where });
  return dir === null ? null : statePath(dir, STATE_FILES.configCache);
}
