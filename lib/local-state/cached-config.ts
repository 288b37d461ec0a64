import { readConfigSnapshot, type ConfigSnapshot } from '../git/config-snapshot';
import type { GitRunner } from '../git/git-runner';
import { resolveStateDir } from './state-dir';

/**
 * The config values git-capsule reads (capsule.*, user.name, user.email) and the repository's
 * directories, through the cache in the runtime state dir (`git-config.json`): the one config
 * reader every store open, hook and verb uses. Throws GIT_FAILED, GIT_MISSING when git must be
 * asked and fails.
 */
export function readCachedConfig(git: GitRunner, opts: { racyMs?: number } = {}): Promise<ConfigSnapshot> {
  return readConfigSnapshot(git, { ...opts, stateDirOf: (where) => resolveStateDir({ env: git.env, ...where }) });
}
