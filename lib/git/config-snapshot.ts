import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { changedRecently, lookupConfigCache, saveConfigCache, statKey } from './config-cache';
import { CONFIG_LIST_ARGS, capsuleValues, configEnvFingerprint, configSources, parseConfigList } from './config-sources';
import { walkToGitDir, type WalkedGitDir } from './git-dir-walk';
import type { GitRunner } from './git-runner';
import { parseRepoDirs, REV_PARSE_DIRS, type RepoDirs } from './repo-dirs';

/** What git config says for git-capsule (capsule.*, user.name, user.email) and, when known, where the repository is. */
export interface ConfigSnapshot {
  values: Record<string, string>;
  /** The repository's directories, when this read learned them (from git or from a valid cache entry). */
  dirs: RepoDirs | null;
}

/**
 * Reads the config keys git-capsule uses. Every store open and the budget need them, and one
 * `git config` process costs ~5–10 ms, so the answer is kept in the runtime state dir
 * (its file named by the caller) and reused while every file that decides it is unchanged: the system,
 * global, repository and worktree files, every file a value came from and every include
 * target, each by mtime, ctime, size and inode; keyed by cwd, the git dirs and the
 * environment git reads config from. What cannot be pinned to files (an `onbranch:`
 * include, a bare repository, a source changed during the read) is never cached. Off with
 * `CAPSULE_CONFIG_CACHE=0`. Throws GIT_FAILED, GIT_MISSING when git must be asked and fails.
 */
export async function readConfigSnapshot(git: GitRunner, opts: ConfigReadOptions = {}): Promise<ConfigSnapshot> {
  const env = git.env;
  const place = env.CAPSULE_CONFIG_CACHE === '0' || !opts.cacheFileOf ? null : cachePlace(git, opts.cacheFileOf, opts.walk);
  if (place !== null) {
    const hit = lookupPlace(place);
    if (hit) return { values: hit.values, dirs: hit.dirs };
    // Two readers in one process (a hook's budget and its store) share one read of git.
    const slot = `${place.file}\0${place.key}`;
    const pending = inFlight.get(slot);
    if (pending) return pending;
    const reading = askGit(git, place, opts);
    inFlight.set(slot, reading);
    const done = () => void inFlight.delete(slot);
    reading.then(done, done);
    return reading;
  }
  return askGit(git, null, opts);
}

/** How a config read finds its cache, and how recent a change may be before it is not cached. */
export interface ConfigReadOptions {
  /** The cache file of a repository (lib/local-state decides where); without it nothing is cached. */
  cacheFileOf?: (where: { commonDir: string; workTree: string | null }) => string | null;
  /** How the cache file is written (lib/local-state's private writer); without it nothing is saved. */
  writeCacheFile?: (path: string, text: string) => void;
  /** Replaces the racy-change windows (tests). */
  racyMs?: number;
  /** The walk from the runner's cwd, when the caller already made it (a hook's runner): not made again. */
  walk?: WalkedGitDir | null;
}

/**
 * The cached answer alone, without starting git: what the last reader in this repository and
 * environment saw, while its files are unchanged; null on a miss (or with the cache off). For
 * UserPromptSubmit, which runs before every prompt and starts no process.
 */
export function peekConfigSnapshot(where: { cwd: string; env: NodeJS.ProcessEnv }, opts: Pick<ConfigReadOptions, 'cacheFileOf'>): ConfigSnapshot | null {
  if (where.env.CAPSULE_CONFIG_CACHE === '0' || !opts.cacheFileOf) return null;
  const place = cachePlace(where, opts.cacheFileOf);
  const hit = place === null ? null : lookupPlace(place);
  return hit ? { values: hit.values, dirs: hit.dirs } : null;
}

/** Reads of git in flight in this process, by cache file and key. */
const inFlight = new Map<string, Promise<ConfigSnapshot>>();

async function askGit(git: GitRunner, place: CachePlace | null, opts: ConfigReadOptions): Promise<ConfigSnapshot> {
  const env = git.env;
  const startedAt = Date.now();
  const before = place === null ? [] : fixedFiles(place.walk.gitDir, place.walk.commonDir, env).map((f) => [f, statKey(f)] as const);
  const [list, revParse, system] = await Promise.all([
    git.run(CONFIG_LIST_ARGS, { okExitCodes: [1] }),
    place === null ? null : git.run(REV_PARSE_DIRS, { okExitCodes: [128] }).catch(() => null),
    place === null ? null : systemConfigFile(git),
  ]);
  const entries = parseConfigList(list.stdout);
  const values = capsuleValues(entries);
  const dirs = revParse !== null && revParse.exitCode === 0 ? parseRepoDirs(revParse.stdout, git.cwd) : null;
  if (place !== null && dirs !== null && !dirs.bare && system !== undefined && sameDirs(dirs, place)) {
    const sources = configSources(entries, { env, gitDir: place.walk.gitDir, commonDir: place.walk.commonDir, workDir: dirs.repoDir, systemFile: system });
    if ('files' in sources) {
      const files = sources.files.map((f) => [f, statKey(f)] as [string, string | null | undefined]);
      const unchanged = before.every(([f, s]) => files.some(([g, t]) => g === f && t === s));
      const known = files.every((f): f is [string, string | null] => f[1] !== undefined);
      if (opts.writeCacheFile && known && unchanged && files.every(([, s]) => !changedRecently(s ?? null, startedAt, opts.racyMs))) {
        saveConfigCache(place.file, { key: place.key, files, values, dirs }, opts.writeCacheFile);
      }
    }
  }
  return { values, dirs };
}

interface CachePlace {
  file: string;
  /** The entry looked up first and saved: the top level's when the reader is below it, else this cwd's. */
  key: string;
  /** This cwd's own entry (the same as `key` at the top level). */
  cwdKey: string;
  walk: WalkedGitDir;
}

/** The entry of this place, by its key (below the top level: the top level's), else by this cwd's own (an entry made before they were shared). */
function lookupPlace(place: CachePlace) {
  return lookupConfigCache(place.file, place.key) ?? (place.key === place.cwdKey ? null : lookupConfigCache(place.file, place.cwdKey));
}

/** Where the cache for this runner lives and its key; null when the repository cannot be found without git for sure. */
function cachePlace(git: { cwd: string; env: NodeJS.ProcessEnv }, cacheFileOf: NonNullable<ConfigReadOptions['cacheFileOf']>, walked?: WalkedGitDir | null): CachePlace | null {
  const env = git.env;
  const walk = walked === undefined ? walkToGitDir(git.cwd, env) : walked;
  if (walk === null) return null;
  // Between cwd and the `.git` found, git would also take a directory that is itself a git dir
  // (a bare repository): then the walk and git disagree, and the cache must stay out of it.
  // A relative GIT_WORK_TREE is taken from cwd, and a ceiling can stop git's walk below the top level.
  let plain = walk.level !== null && !env.GIT_WORK_TREE && !env.GIT_CEILING_DIRECTORIES;
  if (walk.level !== null) {
    const device = plain ? statSync(walk.level, { throwIfNoEntry: false })?.dev : undefined;
    for (let dir = resolve(git.cwd); dir !== walk.level && dir !== dirname(dir); dir = dirname(dir)) {
      if (existsSync(join(dir, 'HEAD'))) return null;
      if (device === undefined) continue;
      // Git walks up the real path of its cwd (a folder linked in from elsewhere is not inside the
      // repository for it) and stops at a file-system boundary: past either, only this cwd's own entry holds.
      const s = lstatSync(dir, { throwIfNoEntry: false });
      if (s === undefined || s.isSymbolicLink() || (s.dev !== device && !env.GIT_DISCOVERY_ACROSS_FILESYSTEM)) plain = false;
    }
  }
  const file = cacheFileOf({ commonDir: walk.commonDir, workTree: walk.level });
  if (file === null) return null;
  // No realpath here: the stat of <common dir>/config follows symlinks, so a `.git` that now
  // leads to another repository fails the lookup anyway.
  const keyAt = (cwd: string) => JSON.stringify([cwd, walk.level, walk.gitDir, walk.commonDir, configEnvFingerprint(env)]);
  const cwdKey = keyAt(git.cwd);
  // Below the top level, git finds the same repository, reads the same files and names the same
  // directories as at the top (its walk up is as plain: no ceiling, no file-system boundary, no
  // work tree from the environment), so a shell in a subfolder and a hook at the top share one entry.
  return { file, key: plain && walk.level !== null ? keyAt(walk.level) : cwdKey, cwdKey, walk };
}

/** The files known before asking git: global, repository and worktree config. */
function fixedFiles(gitDir: string, commonDir: string, env: NodeJS.ProcessEnv): string[] {
  const global = env.GIT_CONFIG_GLOBAL ? [] : env.HOME ? [join(env.HOME, '.gitconfig'), join(env.XDG_CONFIG_HOME || join(env.HOME, '.config'), 'git', 'config')] : [];
  return [join(commonDir, 'config'), join(gitDir, 'config.worktree'), ...global];
}

/**
 * The system config file as this git sees it: `git config --system --edit` with `echo` as the
 * editor prints the path (an empty or missing file shows up in no listing). Undefined when git
 * does not say, which keeps the read out of the cache.
 */
async function systemConfigFile(git: GitRunner): Promise<string | undefined> {
  try {
    const out = await git.run(['config', '--system', '--edit'], { env: { GIT_EDITOR: 'echo' } });
    const path = out.stdout.replace(/\r?\n$/, '');
    return path !== '' && !/[\r\n]/.test(path) ? resolve(git.cwd, path) : undefined;
  } catch {
    return undefined;
  }
}

/** True when git found the git dirs the walk found (the cache is looked up by the walk's answer). */
function sameDirs(dirs: RepoDirs, place: CachePlace): boolean {
  try {
    const real = realpathSync.native;
    return real(dirs.gitDir) === real(place.walk.gitDir) && real(dirs.commonDir) === real(place.walk.commonDir);
  } catch {
    return false;
  }
}
