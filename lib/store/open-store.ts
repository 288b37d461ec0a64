import { statSync } from 'node:fs';
import { CapsuleError } from '../errors/capsule-error';
import { CatFileBatch, type StoreObjectReader } from '../git/cat-file-batch';
import { resolveIdentity } from '../git/git-env';
import { GitMemoryStore } from './git-memory-store';
import { createGitRunner } from '../git/git-runner';
import type { ConfigSnapshot } from '../git/config-snapshot';
import { walkToGitDir, type WalkedGitDir } from '../git/git-dir-walk';
import type { GitRunner } from '../git/git-runner';
import { FileObjectReader } from '../git/object-reader';
import { filesSpeakForGit } from '../git/ref-files';
import type { RepoDirs } from '../git/repo-dirs';
import { readCachedConfig, type FoundRepository } from '../local-state/cached-config';
import { repoConfigFrom, resolveMemoryRef } from './memory-ref';
import type { MemoryStore } from './types';

/**
 * Opens the memory branch of the repository containing `cwd`. Startup is what every hook
 * pays: the config (capsule.ref, identity) and the directories come from the runtime dir's
 * config cache while the config files are unchanged (lib/git/config-snapshot.ts), else from
 * `git config` and `rev-parse`. Objects are read through a long-lived `cat-file --batch`, whose
 * first answer proves this is a repository, and every commit written by `git fast-import` (the
 * one write path: an in-process committer measured no cheaper, issue 35, docs/performance.md).
 * With `CAPSULE_OBJECT_FILES=1`, where the files speak for git (refs as files, no replace
 * refs), objects are read straight from them (FileObjectReader: no process). `repo`: the
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
  const known = await knownRepository(git, found?.walked, readConfig);
  const batch: StoreObjectReader = known ? new FileObjectReader(known.dirs, git) : new CatFileBatch(git);
  try {
    if (batch instanceof CatFileBatch) batch.start();
    const [snapshot] = known ? [known.snapshot] : await Promise.all([readConfig(), batch.read('HEAD')]);
    const config = repoConfigFrom(snapshot.values);
    const ref = resolveMemoryRef(config.capsuleRef);
    return new GitMemoryStore(git, batch, ref, { identity: resolveIdentity(env, { name: config.userName, email: config.userEmail }), dirs: snapshot.dirs });
  } catch (err) {
    await batch.close();
    throw err;
  }
}

/**
 * The config and directories when the repository is known without cat-file and its files can
 * be read directly; null otherwise (then the cat-file's first answer proves the repository). A
 * cache hit starts no process; a miss asks `git config` and `rev-parse`, which prove it too.
 */
async function knownRepository(git: GitRunner, walked: WalkedGitDir | null | undefined, readConfig: () => Promise<ConfigSnapshot>): Promise<{ snapshot: ConfigSnapshot; dirs: RepoDirs } | null> {
  // Opt-in: measured on 2026-12-01 (docs/performance.md, round three) the direct path took as
  // much wall time as cat-file + fast-import and 3-27 ms more CPU, so git stays the storage
  // engine unless CAPSULE_OBJECT_FILES=1 asks for the files.
  if (git.env.CAPSULE_OBJECT_FILES !== '1' || OBJECT_ENV.some((v) => git.env[v])) return null;
  // Outside a repository (or where the walk cannot tell), git config answers without rev-parse: leave it to cat-file.
  if ((walked === undefined ? walkToGitDir(git.cwd, git.env) : walked) === null) return null;
  const snapshot = await readConfig();
  const dirs = snapshot.dirs;
  return dirs !== null && filesSpeakForGit(dirs.commonDir) ? { snapshot, dirs } : null;
}

/** Variables that move or swap objects for git: with any of them set, only git reads objects. */
const OBJECT_ENV = ['GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_REPLACE_REF_BASE', 'GIT_NAMESPACE'];
