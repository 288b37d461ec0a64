import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';
import { resolveIdentity } from './git-env';
import { GitMemoryStore } from './git-memory-store';
import { createGitRunner } from './git-runner';
import { readRepoConfig, resolveMemoryRef } from './memory-ref';
import { discoverRepo } from './repo-dirs';
import type { MemoryStore } from './types';

/**
 * Opens the memory branch of the repository containing `cwd` (two git calls, run in
 * parallel: rev-parse for the directories, config for `capsule.ref` and the identity).
 * Call `close()` when done. Throws NOT_A_REPO, GIT_MISSING, MEMORY_ROOT.
 *
 * @example
 * const store = await openStore({ cwd: process.cwd() });
 * try { console.log(await store.listIndex({ status: ['active'], limit: 1 })); } finally { await store.close(); }
 */
export async function openStore(opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<MemoryStore> {
  const isDir = await stat(opts.cwd).then((s) => s.isDirectory(), () => false);
  if (!isDir) throw new CapsuleError('NOT_A_REPO', `${opts.cwd} is not a directory; run git-capsule from a project checkout`, { cwd: opts.cwd });
  const env = opts.env ?? process.env;
  const git = createGitRunner({ cwd: opts.cwd, env });
  const [dirs, config] = await Promise.all([discoverRepo(git), readRepoConfig(git)]);
  const ref = resolveMemoryRef(config.capsuleRef);
  const stateDir = env.CAPSULE_STATE_DIR || join(dirs.commonDir, 'capsule');
  return new GitMemoryStore(git, dirs, ref, { identity: resolveIdentity(env, { name: config.userName, email: config.userEmail }), stateDir });
}
