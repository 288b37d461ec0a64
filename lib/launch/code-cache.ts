import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Runs a CommonJS bundle compiled with V8's code cache, kept per bundle in a per-user cache dir.
 * Node 20 has no compile cache, and compiling a ~200–500 KB bundle (yaml, validation) costs
 * about as much as node's own start; with the cache V8 deserializes only the functions an
 * earlier run compiled (measured ~35 → ~15 ms of CPU per hook call). The cache file name
 * carries the bundle's hash (written into it at build, with its size and mtime; else hashed
 * here) and the node version (V8 itself only checks the source length); node:crypto is loaded
 * only for a bundle without a build hash (loading it costs ~5 ms, an eighth of node's start);
 * a missing, unreadable or rejected cache only costs speed. A `variant` keeps one cache per
 * path through the bundle (the CLI: per verb), since a cache holds only what the run that wrote
 * it compiled. A cache is also written anew when a run took a path (`takenPaths`, read at exit:
 * the hook bundles note theirs, lib/hooks/code-path.ts) that the runs behind the cache had not taken: the new one holds what the old one
 * did plus what this run compiled, and the paths covered are kept beside it (`<cache>.paths`), so
 * after a few runs no start compiles its path again. Throws only when the bundle cannot be read
 * or throws while loading.
 */
export function runWithCodeCache(bundle: string, env: NodeJS.ProcessEnv, variant?: string, takenPaths: () => readonly string[] = () => []): void {
  const source = readFileSync(bundle, 'utf8');
  const cacheFile = cachePath(source, bundle, env, variant);
  let cached: Buffer | undefined;
  try {
    cached = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cached = undefined;
  }
  let script: Script;
  try {
    // No dynamic import() can run in a vm.Script on node 20: scripts/build.mjs turns them into require().
    script = new Script(wrap(source), { filename: bundle, cachedData: cached });
  } catch {
    require(bundle);
    return;
  }
  if (cacheFile) {
    const fresh = cached === undefined || script.cachedDataRejected;
    const covered = fresh ? [] : readCovered(cacheFile);
    // Written at exit so the cache also holds the functions this run compiled lazily.
    // A variant's cache is kept only from a run that succeeded, so a mistyped verb leaves none behind.
    process.once('exit', (code) => {
      if (variant !== undefined && code !== 0) return;
      const taken = takenPaths();
      if (fresh || taken.some((p) => !covered.includes(p))) saveCache(cacheFile, script, [...new Set([...covered, ...taken])].sort());
    });
  }
  const module = { exports: {} as unknown, filename: bundle };
  const fn = script.runInThisContext() as (e: unknown, r: NodeRequire, m: unknown, f: string, d: string) => void;
  fn(module.exports, requireFrom(bundle), module, bundle, dirname(bundle));
}

/**
 * `createRequire(bundle)`, from the loader's own Module class: loading the public `node:module`
 * for it cost ~0.5 ms on every start (node 20), a tenth of what the code cache saves
 * UserPromptSubmit. The public module is the fallback where the class does not carry it.
 */
function requireFrom(bundle: string): NodeRequire {
  const own = (module.constructor as { createRequire?: (path: string) => NodeRequire }).createRequire;
  return typeof own === 'function' ? own(bundle) : (require('node:module') as typeof import('node:module')).createRequire(bundle);
}

function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source.replace(/^#!.*/, '')}\n})`;
}

function cachePath(source: string, bundle: string, env: NodeJS.ProcessEnv, variant: string | undefined): string | null {
  const base = env.CAPSULE_CODE_CACHE_DIR || env.CLAUDE_PLUGIN_DATA || (env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, 'git-capsule') : env.HOME ? join(env.HOME, '.cache', 'git-capsule') : null);
  if (!base || env.CAPSULE_CODE_CACHE === '0') return null;
  // scripts/build.mjs writes each bundle's hash into it; hashing ~500 KB here would cost ~7 ms a start.
  // The file's size and mtime join it, so a hand-edited bundle never meets an old cache.
  const declared = /^\/\/ capsule-bundle-hash: ([0-9a-f]{20})$/m.exec(source.slice(0, 200))?.[1];
  const stat = declared === undefined ? null : statSync(bundle, { throwIfNoEntry: false });
  const hash = declared !== undefined && stat ? keyHash(`${declared}:${stat.size}:${stat.mtimeMs}:${process.version}:${process.arch}`) : sourceHash(source);
  return join(base, 'code-cache', `${basename(bundle, '.js')}${variant ? `-${variant}` : ''}-${hash}.v8`);
}

/** 20 hex digits naming a cache file from a short key: FNV-1a, three seeds (identity, not secrecy). */
function keyHash(key: string): string {
  let out = '';
  for (const seed of [0x811c9dc5, 0x01000193, 0x5bd1e995]) {
    let h = seed >>> 0;
    for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 20);
}

function sourceHash(source: string): string {
  // Only bundles built without a hash pay for crypto.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha1').update(source).update(process.version).update(process.arch).digest('hex').slice(0, 20);
}

/** The code paths the cache beside `file` was written from; none when unknown. */
function readCovered(file: string): string[] {
  try {
    const paths = JSON.parse(readFileSync(`${file}.paths`, 'utf8')) as unknown;
    return Array.isArray(paths) ? paths.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * How many builds of one bundle (and variant) keep a cache side by side. Each build leaves a new
 * cache file; keeping only the newest made two builds that share a cache folder (two checkouts,
 * a plugin and a development build, a bench against a baseline) delete each other's cache on
 * every write, so each started compiled from scratch.
 */
export const KEPT_BUILDS = 3;

/** Drops the caches of this bundle's builds older than the newest KEPT_BUILDS (only when writing, never on the hot path). */
function dropOldBuilds(file: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file).replace(/-[0-9a-f]{20}\.v8$/, '')}-`;
  const hashes = new Set<string>();
  for (const name of readdirSync(dir)) {
    const m = name.startsWith(prefix) ? /^([0-9a-f]{20})\.v8(\.paths)?$/.exec(name.slice(prefix.length)) : null;
    if (m && `${prefix}${m[1]}.v8` !== basename(file)) hashes.add(m[1]!);
  }
  // Newest first by the cache's own write time; a list without its cache is the oldest.
  const age = (hash: string) => statSync(join(dir, `${prefix}${hash}.v8`), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const older = [...hashes].map((hash) => ({ hash, at: age(hash) })).sort((a, b) => b.at - a.at).slice(KEPT_BUILDS - 1);
  for (const { hash } of older) for (const name of [`${prefix}${hash}.v8`, `${prefix}${hash}.v8.paths`]) rmSync(join(dir, name), { force: true });
}

function saveCache(file: string, script: Script, covered: string[]): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    // @types/node 20.9 and TypeScript 5.9 disagree about Buffer; it is a Uint8Array.
    writeFileSync(temp, script.createCachedData() as unknown as Uint8Array);
    writeFileSync(`${temp}.paths`, JSON.stringify(covered));
    // The cache before its list: killed in between, the list claims less than the cache holds
    // (the next run writes both again), never more.
    renameSync(temp, file);
    renameSync(`${temp}.paths`, `${file}.paths`);
    dropOldBuilds(file);
  } catch {
    // A read-only HOME only costs speed.
  }
}
