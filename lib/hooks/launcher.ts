import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * The start-up path of the heavy hook bundles (`dist/hooks/<event>.js` → `dist/hooks/impl/<event>.js`).
 * Node 20 has no compile cache, and compiling the ~200 KB bundle (yaml, validation) costs about
 * as much as node's own start, so this keeps V8's code cache per bundle in a per-user cache dir
 * and compiles with it: measured ~35 → ~15 ms of CPU per hook call. The cache file name carries
 * a hash of the bundle and the node version (V8 itself only checks the source length); any
 * problem with the cache falls back to a plain require.
 */
function launch(): void {
  if (process.env.CAPSULE_DISABLED !== undefined) return; // pass through untouched
  const bundle = join(dirname(process.argv[1] ?? __filename), 'impl', basename(process.argv[1] ?? __filename));
  const source = readFileSync(bundle, 'utf8');
  const cacheFile = cachePath(source, bundle);
  let cached: Buffer | undefined;
  try {
    cached = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cached = undefined;
  }
  let script: Script;
  try {
    script = new Script(wrap(source), { filename: bundle, cachedData: cached });
  } catch {
    require(bundle);
    return;
  }
  if (cacheFile && (cached === undefined || script.cachedDataRejected)) {
    // Written at exit so the cache also holds the functions this run compiled lazily.
    process.once('exit', () => saveCache(cacheFile, script));
  }
  const module = { exports: {} as unknown, filename: bundle };
  const fn = script.runInThisContext() as (e: unknown, r: NodeRequire, m: unknown, f: string, d: string) => void;
  fn(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source.replace(/^#!.*/, '')}\n})`;
}

function cachePath(source: string, bundle: string): string | null {
  const env = process.env;
  const base = env.CAPSULE_CODE_CACHE_DIR || env.CLAUDE_PLUGIN_DATA || (env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, 'git-capsule') : env.HOME ? join(env.HOME, '.cache', 'git-capsule') : null);
  if (!base || env.CAPSULE_CODE_CACHE === '0') return null;
  const hash = createHash('sha1').update(source).update(process.version).update(process.arch).digest('hex').slice(0, 20);
  return join(base, 'code-cache', `${basename(bundle, '.js')}-${hash}.v8`);
}

function saveCache(file: string, script: Script): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    // @types/node 20.9 and TypeScript 5.9 disagree about Buffer; it is a Uint8Array.
    writeFileSync(temp, script.createCachedData() as unknown as Uint8Array);
    renameSync(temp, file);
  } catch {
    // A read-only HOME only costs speed.
  }
}

try {
  launch();
} catch (err) {
  // A missing or broken bundle must not break the session either: exit 0 and say so.
  const reason = err instanceof Error ? err.message : String(err);
  process.stdout.write(`${JSON.stringify({ systemMessage: `capsule: hook skipped [HOOK_LAUNCH_FAILED] ${reason}`.replace(/\s+/g, ' ').slice(0, 300) })}\n`);
  process.exitCode = 0;
}
