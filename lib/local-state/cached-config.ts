import { peekConfigSnapshot, readConfigSnapshot, type ConfigSnapshot } from '../git/config-snapshot';
import { gitEnv } from '../git/git-env';
import type { GitRunner } from '../git/git-runner';
import { writePrivateFile } from './private-file';
import { resolveStateDir } from './state-dir';
import { STATE_FILES, statePath } from './state-files';

/**
 * The config values git-capsule reads (capsule.*, user.name, user.email) and the repository's
 * directories, through the cache in the runtime state dir (`git-config.json`): the one config
 * reader every store open, hook and verb uses. Throws GIT_FAILED, GIT_MISSING when git must be
 * asked and fails.
 */
export function readCachedConfig(git: GitRunner, opts: { racyMs?: number } = {}): Promise<ConfigSnapshot> {
  return readConfigSnapshot(git, { ...opts, cacheFileOf: (where) => configCacheFile(git.env, where), writeCacheFile: writePrivateFile });
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
