import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const STOP = join(__dirname, '..', '..', 'dist', 'hooks', 'stop.js');

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

  it('runs the bundle and keeps one code-cache file for it', () => {
    const first = run();
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('HOOK_INPUT_NOT_JSON');
    expect(cacheFiles()).toEqual([expect.stringMatching(/^stop-[0-9a-f]{20}\.v8$/)]);
    expect(run().stdout).toBe(first.stdout);
  });

  it('still runs, and rewrites the cache, when the cache file is garbage', () => {
    run();
    const [file] = cacheFiles();
    writeFileSync(join(cache, 'code-cache', file!), 'garbage');
    const r = run();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('HOOK_INPUT_NOT_JSON');
    expect(cacheFiles()).toEqual([file]);
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
