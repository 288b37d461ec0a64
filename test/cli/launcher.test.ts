import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', 'dist', 'git-capsule.js');

describe('the CLI launcher', () => {
  let cache: string;
  beforeEach(() => (cache = mkdtempSync(join(tmpdir(), 'capsule-cli-cc-'))));
  afterEach(() => rmSync(cache, { recursive: true, force: true }));

  const run = (env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [CLI, '--version'], { env: { PATH: process.env.PATH, CAPSULE_CODE_CACHE_DIR: cache, ...env }, encoding: 'utf8' });
  const cacheFiles = () => {
    try {
      return readdirSync(join(cache, 'code-cache'));
    } catch {
      return [];
    }
  };

  it('runs the CLI bundle and keeps one code-cache file for it, with the list of paths it covers', () => {
    const first = run();
    expect(first).toMatchObject({ status: 0, stdout: expect.stringMatching(/^git-capsule \d/) });
    expect(cacheFiles()).toEqual([expect.stringMatching(/^git-capsule-[0-9a-f]{20}\.v8$/), expect.stringMatching(/^git-capsule-[0-9a-f]{20}\.v8\.paths$/)]);
    expect(run().stdout).toBe(first.stdout);
  });

  it('still runs when the cache file is garbage, and when caching is off', () => {
    run();
    const [file] = cacheFiles();
    writeFileSync(join(cache, 'code-cache', file!), 'garbage');
    expect(run()).toMatchObject({ status: 0, stdout: expect.stringMatching(/^git-capsule \d/) });
    expect(run({ CAPSULE_CODE_CACHE: '0' })).toMatchObject({ status: 0, stdout: expect.stringMatching(/^git-capsule \d/) });
  });

  it("keeps the caches of this bundle's newest earlier builds beside its own, drops older ones, and no other bundle's", () => {
    const dir = join(cache, 'code-cache');
    mkdirSync(dir, { recursive: true });
    const build = (digit: string, ageSeconds: number) => {
      const file = join(dir, `git-capsule-${digit.repeat(20)}.v8`);
      writeFileSync(file, `build ${digit}`);
      writeFileSync(`${file}.paths`, '[]');
      const at = Date.now() / 1000 - ageSeconds;
      utimesSync(file, at, at);
      return `git-capsule-${digit.repeat(20)}.v8`;
    };
    const oldest = build('1', 300);
    const older = build('2', 200);
    const newer = build('3', 100);
    writeFileSync(join(dir, `stop-${'0'.repeat(20)}.v8`), 'another bundle');
    run();
    const mine = cacheFiles().filter((f) => ![oldest, older, newer].some((b) => f.startsWith(b)) && f.startsWith('git-capsule-'));
    expect(mine).toEqual([expect.stringMatching(/^git-capsule-[0-9a-f]{20}\.v8$/), expect.stringMatching(/^git-capsule-[0-9a-f]{20}\.v8\.paths$/)]);
    expect(cacheFiles().sort()).toEqual([...mine, older, `${older}.paths`, newer, `${newer}.paths`, `stop-${'0'.repeat(20)}.v8`].sort());
  });

  it('keeps one cache file per verb, each holding what that verb compiled', () => {
    run();
    expect(spawnSync(process.execPath, [CLI, 'help'], { env: { PATH: process.env.PATH, CAPSULE_CODE_CACHE_DIR: cache }, encoding: 'utf8' }).status).toBe(0);
    expect(cacheFiles().filter((f) => f.endsWith('.v8')).sort()).toEqual([expect.stringMatching(/^git-capsule-[0-9a-f]{20}\.v8$/), expect.stringMatching(/^git-capsule-help-[0-9a-f]{20}\.v8$/)]);
  });

  it('keeps no cache for a verb that failed (a mistyped verb leaves no file behind)', () => {
    expect(spawnSync(process.execPath, [CLI, 'no-such-verb'], { env: { PATH: process.env.PATH, CAPSULE_CODE_CACHE_DIR: cache }, encoding: 'utf8' }).status).toBe(2);
    expect(cacheFiles()).toEqual([]);
  });

  it('keeps the exit code and stderr of the verb it runs', () => {
    const r = run();
    const bad = spawnSync(process.execPath, [CLI, 'no-such-verb'], { env: { PATH: process.env.PATH, CAPSULE_CODE_CACHE_DIR: cache }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('is not a verb');
  });

  it('runs bundles without a dynamic import() left in them (a vm.Script on node 20 cannot run one)', () => {
    const dist = join(__dirname, '..', '..', 'dist');
    const bundles = [join(dist, 'impl', 'git-capsule.js'), ...readdirSync(join(dist, 'hooks', 'impl')).map((f) => join(dist, 'hooks', 'impl', f))];
    for (const file of bundles) expect({ file, dynamicImport: /(?<![\w$.])import\(/.test(readFileSync(file, 'utf8')) }).toEqual({ file, dynamicImport: false });
  });
});
