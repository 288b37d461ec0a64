import { spawnSync } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STOP = join(__dirname, '..', '..', 'dist', 'hooks', 'stop.js');
const SESSION_START = join(__dirname, '..', '..', 'dist', 'hooks', 'session-start.js');
const USER_PROMPT_SUBMIT = join(__dirname, '..', '..', 'dist', 'hooks', 'user-prompt-submit.js');

describe('the hook launcher', () => {
  let cache: string;
  beforeEach(() => (cache = mkdtempSync(join(tmpdir(), 'capsule-cc-'))));
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  const run = (env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [STOP], {
      input: 'not json',
      env: { PATH: process.env.PATH, CAPSULE_CODE_CACHE_DIR: cache, CAPSULE_STATE_DIR: join(cache, 'state'), ...env },
      encoding: 'utf8',
    });
  const cacheFiles = () => {
    try {
      return readdirSync(join(cache, 'code-cache'));
    } catch {
      return [];
    }
  };

  it('runs the bundle and keeps one code-cache file for it, with the list of paths it covers', () => {
    const first = run();
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('HOOK_INPUT_NOT_JSON');
    expect(cacheFiles()).toEqual([expect.stringMatching(/^stop-[0-9a-f]{20}\.v8$/), expect.stringMatching(/^stop-[0-9a-f]{20}\.v8\.paths$/)]);
    expect(run().stdout).toBe(first.stdout);
  });

  it('still runs, and rewrites the cache, when the cache file is garbage', () => {
    run();
    const [file, paths] = cacheFiles();
    writeFileSync(join(cache, 'code-cache', file!), 'garbage');
    const r = run();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('HOOK_INPUT_NOT_JSON');
    expect(cacheFiles()).toEqual([file, paths]);
    expect(readFileSync(join(cache, 'code-cache', file!), 'utf8')).not.toBe('garbage');
  });

  it('writes the cache again when a run takes a path the cache has not seen, and keeps it after', () => {
    const repo = join(cache, 'repo');
    execFileSync('git', ['init', '-q', repo]);
    const start = (source: string) =>
      spawnSync(process.execPath, [SESSION_START], {
        input: JSON.stringify({ session_id: 's1', cwd: repo, hook_event_name: 'SessionStart', source }),
        env: { PATH: process.env.PATH, HOME: cache, GIT_CONFIG_NOSYSTEM: '1', CAPSULE_CODE_CACHE_DIR: cache, CAPSULE_STATE_DIR: join(cache, 'state') },
        encoding: 'utf8',
      });
    const written = () => {
      const file = cacheFiles().find((f) => f.endsWith('.v8'))!;
      return { paths: JSON.parse(readFileSync(join(cache, 'code-cache', `${file}.paths`), 'utf8')), bytes: readFileSync(join(cache, 'code-cache', file)).length };
    };
    expect(start('startup').status).toBe(0);
    const oriented = written();
    expect(oriented.paths).toEqual(['orient']);
    expect(start('clear').status).toBe(0);
    const resumed = written();
    expect(resumed.paths).toEqual(['orient', 'resume']);
    expect(resumed.bytes).toBeGreaterThan(oriented.bytes);
    expect(start('startup').status).toBe(0);
    expect(written()).toEqual(resumed);
  });

  it('caches UserPromptSubmit too, and writes its cache again when a prompt follows a run that failed open', () => {
    const repo = join(cache, 'repo');
    execFileSync('git', ['init', '-q', repo]);
    const submit = (input: string) =>
      spawnSync(process.execPath, [USER_PROMPT_SUBMIT], { input, cwd: repo, env: { PATH: process.env.PATH, HOME: cache, CAPSULE_CODE_CACHE_DIR: cache, CAPSULE_STATE_DIR: join(cache, 'state') }, encoding: 'utf8' });
    const paths = () => JSON.parse(readFileSync(join(cache, 'code-cache', cacheFiles().find((f) => f.endsWith('.v8.paths'))!), 'utf8'));
    expect(submit('not json').stdout).toContain('HOOK_INPUT_NOT_JSON');
    expect(paths()).toEqual([]);
    const prompt = JSON.stringify({ session_id: 's1', transcript_path: join(cache, 'missing.jsonl'), cwd: repo, hook_event_name: 'UserPromptSubmit', prompt: 'hello' });
    expect(submit(prompt)).toMatchObject({ status: 0, stdout: '' });
    expect(paths()).toEqual(['prompt']);
  });

  it('does not load the public node:module to give the bundle its require (~0.5 ms a start)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capsule-launch-'));
    try {
      mkdirSync(join(dir, 'impl'));
      copyFileSync(STOP, join(dir, 'stop.js'));
      writeFileSync(join(dir, 'impl', 'stop.js'), "process.stdout.write(JSON.stringify({ loaded: process.moduleLoadList.includes('NativeModule module'), require: typeof require('node:path').join }));\n");
      const r = spawnSync(process.execPath, [join(dir, 'stop.js')], { input: '', env: { PATH: process.env.PATH, CAPSULE_CODE_CACHE_DIR: cache }, encoding: 'utf8' });
      expect(JSON.parse(r.stdout)).toEqual({ loaded: false, require: 'function' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the cache of another build of the bundle in the same folder, so two builds do not recompile each other out', () => {
    const other = mkdtempSync(join(tmpdir(), 'capsule-build-'));
    try {
      mkdirSync(join(other, 'impl'));
      copyFileSync(STOP, join(other, 'stop.js'));
      // Another build: the same code one byte longer (the cache key holds the bundle's size).
      writeFileSync(join(other, 'impl', 'stop.js'), `${readFileSync(join(__dirname, '..', '..', 'dist', 'hooks', 'impl', 'stop.js'), 'utf8')}\n`);
      const runOther = () => spawnSync(process.execPath, [join(other, 'stop.js')], { input: 'not json', env: { PATH: process.env.PATH, CAPSULE_CODE_CACHE_DIR: cache, CAPSULE_STATE_DIR: join(cache, 'state') }, encoding: 'utf8' });
      run();
      const [mine] = cacheFiles();
      const written = statSync(join(cache, 'code-cache', mine!)).mtimeMs;
      expect(runOther().stdout).toContain('HOOK_INPUT_NOT_JSON');
      expect(cacheFiles().filter((f) => f.endsWith('.v8'))).toHaveLength(2);
      // This build's cache survived the other's write and is used as it is, not written anew.
      expect(run().stdout).toContain('HOOK_INPUT_NOT_JSON');
      expect(statSync(join(cache, 'code-cache', mine!)).mtimeMs).toBe(written);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('writes no cache when CAPSULE_CODE_CACHE=0', () => {
    expect(run({ CAPSULE_CODE_CACHE: '0' }).stdout).toContain('HOOK_INPUT_NOT_JSON');
    expect(cacheFiles()).toEqual([]);
  });

  it('exits 0 with a systemMessage when its bundle is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'capsule-launch-'));
    try {
      copyFileSync(STOP, join(dir, 'stop.js'));
      const r = spawnSync(process.execPath, [join(dir, 'stop.js')], { input: '{}', env: { PATH: process.env.PATH, CAPSULE_CODE_CACHE: '0' }, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).systemMessage).toContain('HOOK_LAUNCH_FAILED');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes through untouched when CAPSULE_DISABLED is present', () => {
    expect(run({ CAPSULE_DISABLED: '' })).toMatchObject({ status: 0, stdout: '' });
    expect(cacheFiles()).toEqual([]);
  });
});
