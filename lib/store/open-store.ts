import { statSync } from 'node:fs';
import { CapsuleError } from '../errors/capsule-error';
import { CatFileBatch } from '../git/cat-file-batch';
import { resolveIdentity } from '../git/git-env';
import { GitMemoryStore } from './git-memory-store';
import { createGitRunner } from '../git/git-runner';
import { readCachedConfig, type FoundRepository } from '../local-state/cached-config';
import { repoConfigFrom, resolveMemoryRef } from './memory-ref';
import type { MemoryStore } from './types';

/**
 * Opens the memory branch of the repository containing `cwd`. Startup is what every hook
 * pays: the config (capsule.ref, identity) and the directories come from the runtime dir's
 * config cache while the config files are unchanged (lib/git/config-snapshot.ts), else from
 * `git config` and `rev-parse`. Objects are read through a long-lived `cat-file --batch`, whose
 * first answer proves this is a repository, and every commit written by `git fast-import` (the
 * one write path: an in-process committer measured no cheaper, issue 35, docs/performance.md;
 * an in-process reader of loose and packed objects neither, and was deleted too). `repo`: the
 * repository as the caller already found it (a hook's runner locates it and reads its config
 * once per run), used when it was found from `cwd`. Call `close()` when done.
 * Throws NOT_A_REPO, GIT_MISSING, MEMORY_ROOT.
 *
 * @example
 * const store = await openStore({ cwd: process.cwd() });
 * try { console.log(await store.listIndex({ status: ['active'], limit: 1 })); } finally { await store.close(); }
 */
export async function openStore(opts: { cwd: string; env?: NodeJS.ProcessEnv; repo?: FoundRepository }): Promise<MemoryStore> {
  const isDir = statSync(opts.cwd, { throwIfNoEntry: false })?.isDirectory() ?? false;
  if (!isDir) throw new CapsuleError('NOT_A_REPO', `${opts.cwd} is not a directory; run git-capsule from a project checkout`, { cwd: opts.cwd });
  const env = opts.env ?? process.env;
  const git = createGitRunner({ cwd: opts.cwd, env });
  const found = opts.repo?.cwd === opts.cwd ? opts.repo : undefined;
  const readConfig = () => (found ? found.config() : readCachedConfig(git));
  const batch = new CatFileBatch(git);
  try {
    batch.start();
    // The cat-file's first answer proves this is a repository while the config is read.
    const [snapshot] = await Promise.all([readConfig(), batch.read('HEAD')]);
    const config = repoConfigFrom(snapshot.values);
    const ref = resolveMemoryRef(config.capsuleRef);
    return new GitMemoryStore(git, batch, ref, { identity: resolveIdentity(env, { name: config.userName, email: config.userEmail }), dirs: snapshot.dirs });
  } catch (err) {
    await batch.close();
    throw err;
  }
}
