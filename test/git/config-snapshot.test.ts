import { lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveStateDir } from '../../lib/local-state/state-dir';
import { STATE_FILES, statePath } from '../../lib/local-state/state-files';
import { readCachedConfig } from '../../lib/local-state/cached-config';
import { createGitRunner } from '../../lib/git/git-runner';
import { gitOnPath } from '../../lib/git/config-sources';
import { recordingRunner } from './support/recording-runner';
import { cleanup, git, makeRepo, tempDir } from '../store/support/temp-repo';

/** Git processes a read started: none means the cache answered. */
async function read(cwd: string, env: NodeJS.ProcessEnv) {
  const runner = recordingRunner(createGitRunner({ cwd, env }));
  // racyMs 0: the test's files were all written just now; the 2 s guard has its own test.
  const snapshot = await readCachedConfig(runner, { racyMs: 0 });
  return { ...snapshot, calls: runner.calls.length };
}

describe('readConfigSnapshot', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const dirs: string[] = [];
  beforeEach(() => {
    ({ dir, env } = makeRepo());
    // A HOME-based global config (no GIT_CONFIG_GLOBAL): the default lookup is what is cached.
    delete env.GIT_CONFIG_GLOBAL;
    dirs.push(dir, env.HOME!);
  });
  afterEach(() => cleanup(...dirs.splice(0)));

  it('answers the second read from the cache without starting git', async () => {
    git(dir, ['config', 'capsule.ref', 'refs/capsule-memory/x'], env);
    const first = await read(dir, env);
    expect(first.calls).toBeGreaterThan(0);
    const second = await read(dir, env);
    expect(second.calls).toBe(0);
    expect(second.values).toEqual({ 'capsule.ref': 'refs/capsule-memory/x', 'user.name': 'Test User', 'user.email': 'test@example.com' });
    expect(second.dirs).toEqual(first.dirs);
    expect(second.dirs?.commonDir).toBe(git(dir, ['rev-parse', '--path-format=absolute', '--git-common-dir'], env));
  });

  it('keeps its cache file private (0600) and never writes through a link planted where it goes', async () => {
    const stateDir = join(env.HOME!, 'state');
    const cacheEnv = { ...env, CAPSULE_STATE_DIR: stateDir };
    const commonDir = git(dir, ['rev-parse', '--path-format=absolute', '--git-common-dir'], env);
    const file = statePath(resolveStateDir({ env: cacheEnv, commonDir, workTree: dir })!, STATE_FILES.configCache);
    const victim = join(env.HOME!, 'victim');
    writeFileSync(victim, 'keep\n');
    mkdirSync(dirname(file), { recursive: true });
    symlinkSync(victim, file);
    await read(dir, cacheEnv);
    expect(readFileSync(victim, 'utf8')).toBe('keep\n');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await read(dir, cacheEnv)).calls).toBe(0);
  });

  it('shares one read of git between two readers in one process', async () => {
    const runner = recordingRunner(createGitRunner({ cwd: dir, env }));
    const [a, b] = await Promise.all([readCachedConfig(runner, { racyMs: 0 }), readCachedConfig(runner, { racyMs: 0 })]);
    expect(b).toEqual(a);
    expect(runner.calls.filter((c) => c.args.includes('--list'))).toHaveLength(1);
  });

  it('asks git again when the repository config changed', async () => {
    await read(dir, env);
    git(dir, ['config', 'capsule.ref', 'refs/capsule-memory/changed'], env);
    const after = await read(dir, env);
    expect(after.calls).toBeGreaterThan(0);
    expect(after.values['capsule.ref']).toBe('refs/capsule-memory/changed');
  });

  it('asks git again when a global config file appears', async () => {
    await read(dir, env);
    writeFileSync(join(env.HOME!, '.gitconfig'), '[capsule]\n\tref = refs/capsule-memory/global\n');
    expect((await read(dir, env)).values['capsule.ref']).toBe('refs/capsule-memory/global');
    mkdirSync(join(env.HOME!, '.config', 'git'), { recursive: true });
    writeFileSync(join(env.HOME!, '.config', 'git', 'config'), '[capsule]\n\tresetMarginTokens = 5000\n');
    expect((await read(dir, env)).values['capsule.resetmargintokens']).toBe('5000');
  });

  it('asks git again when the system config file changes', async () => {
    const system = join(env.HOME!, 'system-gitconfig');
    const sysEnv = { ...env, GIT_CONFIG_NOSYSTEM: undefined, GIT_CONFIG_SYSTEM: system };
    await read(dir, sysEnv);
    expect((await read(dir, sysEnv)).calls).toBe(0);
    writeFileSync(system, '[user]\n\tname = System User\n');
    const after = await read(dir, sysEnv);
    expect(after.calls).toBeGreaterThan(0);
    expect(after.values['user.name']).toBe('Test User'); // the repository's value still wins
    writeFileSync(system, '[capsule]\n\tref = refs/capsule-memory/system\n');
    expect((await read(dir, sysEnv)).values['capsule.ref']).toBe('refs/capsule-memory/system');
  });

  it('asks git again when an included file changes, or an include target appears', async () => {
    const included = join(env.HOME!, 'included.cfg');
    writeFileSync(included, '[capsule]\n\tref = refs/capsule-memory/one\n');
    git(dir, ['config', 'include.path', included], env);
    git(dir, ['config', 'includeIf.gitdir:/.path', 'later.cfg'], env); // relative to .git/config
    expect((await read(dir, env)).values['capsule.ref']).toBe('refs/capsule-memory/one');
    writeFileSync(included, '[capsule]\n\tref = refs/capsule-memory/two\n');
    expect((await read(dir, env)).values['capsule.ref']).toBe('refs/capsule-memory/two');
    writeFileSync(join(dir, '.git', 'later.cfg'), '[capsule]\n\tref = refs/capsule-memory/three\n');
    expect((await read(dir, env)).values['capsule.ref']).toBe('refs/capsule-memory/three');
  });

  it('never caches when an onbranch: include makes the config follow HEAD', async () => {
    git(dir, ['config', 'includeIf.onbranch:main.path', 'main.cfg'], env);
    await read(dir, env);
    expect((await read(dir, env)).calls).toBeGreaterThan(0);
  });

  it('keeps environments apart (config from the environment is not in any file)', async () => {
    await read(dir, env);
    const withParam = { ...env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'capsule.ref', GIT_CONFIG_VALUE_0: 'refs/capsule-memory/env' };
    const r = await read(dir, withParam);
    expect(r.calls).toBeGreaterThan(0);
    expect(r.values['capsule.ref']).toBe('refs/capsule-memory/env');
  });

  it('asks git again when .git now points at another repository', async () => {
    const other = makeRepo();
    dirs.push(other.dir, other.env.HOME!);
    git(other.dir, ['config', 'capsule.ref', 'refs/capsule-memory/other'], env);
    const project = tempDir();
    dirs.push(project);
    symlinkSync(join(dir, '.git'), join(project, '.git'));
    await read(project, env);
    expect((await read(project, env)).calls).toBe(0);
    rmSync(join(project, '.git'));
    symlinkSync(join(other.dir, '.git'), join(project, '.git'));
    expect((await read(project, env)).values['capsule.ref']).toBe('refs/capsule-memory/other');
  });

  it('does not cache when git finds another git dir than the walk (an empty .git below)', async () => {
    mkdirSync(join(dir, 'sub', '.git'), { recursive: true });
    const sub = join(dir, 'sub');
    expect((await read(sub, env)).dirs?.repoDir).toBe(git(dir, ['rev-parse', '--show-toplevel'], env));
    expect((await read(sub, env)).calls).toBeGreaterThan(0);
  });

  it('does not use the cache once a bare repository sits between cwd and .git', async () => {
    const deeper = join(dir, 'inner', 'deeper');
    mkdirSync(deeper, { recursive: true });
    await read(deeper, env);
    expect((await read(deeper, env)).calls).toBe(0);
    git(join(dir, 'inner'), ['init', '-q', '--bare', '.'], env);
    expect((await read(deeper, env)).calls).toBeGreaterThan(0);
  });

  it('shares one entry between the top level and a subfolder (a shell in src/, a hook at the top)', async () => {
    const sub = join(dir, 'src');
    mkdirSync(sub);
    await read(sub, env);
    const top = await read(dir, env);
    expect(top.calls).toBe(0);
    expect((await read(sub, env)).calls).toBe(0);
    expect(top.dirs?.repoDir).toBe(git(dir, ['rev-parse', '--show-toplevel'], env));
  });

  it('keeps a subfolder to its own entry when GIT_CEILING_DIRECTORIES could stop git below the top level', async () => {
    const sub = join(dir, 'src');
    mkdirSync(sub);
    const ceiling = { ...env, GIT_CEILING_DIRECTORIES: join(dir, 'elsewhere') };
    await read(dir, ceiling);
    expect((await read(sub, ceiling)).calls).toBeGreaterThan(0);
  });

  it('keeps a linked folder to its own entry: git walks up from where the link leads', async () => {
    const outside = tempDir();
    dirs.push(outside);
    symlinkSync(outside, join(dir, 'linked'));
    await read(dir, env);
    expect((await read(join(dir, 'linked'), env)).dirs).toBeNull();
  });

  it('keeps a subfolder to its own entry when GIT_WORK_TREE names the work tree (a relative one is taken from cwd)', async () => {
    const sub = join(dir, 'src');
    mkdirSync(sub);
    const here = { ...env, GIT_WORK_TREE: '.' };
    await read(dir, here);
    const below = await read(sub, here);
    expect(below.calls).toBeGreaterThan(0);
    expect(below.dirs?.repoDir).toBe(sub);
  });

  it('shares the entry between two PATHs that find the same git, not between two gits', async () => {
    await read(dir, env);
    const empty = tempDir();
    const wrapped = tempDir();
    dirs.push(empty, wrapped);
    expect((await read(dir, { ...env, PATH: `${empty}:${env.PATH}` })).calls).toBe(0);
    writeFileSync(join(wrapped, 'git'), `#!/bin/sh\nexec ${JSON.stringify(gitOnPath(env))} "$@"\n`, { mode: 0o755 });
    expect((await read(dir, { ...env, PATH: `${wrapped}:${env.PATH}` })).calls).toBeGreaterThan(0);
  });

  it('does not cache a read while a source changed within the racy window', async () => {
    const runner = recordingRunner(createGitRunner({ cwd: dir, env }));
    await readCachedConfig(runner, { racyMs: 60_000 });
    await readCachedConfig(runner, { racyMs: 60_000 });
    expect(runner.calls.filter((c) => c.args[0] === 'config' && c.args.includes('--list'))).toHaveLength(2);
  });

  it('caches a read made 50 ms after the last change when timestamps are fine-grained', async () => {
    await new Promise((r) => setTimeout(r, 120));
    const runner = recordingRunner(createGitRunner({ cwd: dir, env }));
    await readCachedConfig(runner);
    const calls = runner.calls.length;
    await readCachedConfig(runner);
    expect(runner.calls).toHaveLength(calls);
  });


  it('does not cache a read when a known source changed while git read it', async () => {
    const real = createGitRunner({ cwd: dir, env });
    const racing = {
      ...real,
      run: async (args: readonly string[], opts?: Parameters<typeof real.run>[1]) => {
        const out = await real.run(args, opts);
        if (args.includes('--list')) git(dir, ['config', 'capsule.ref', 'refs/capsule-memory/late'], env);
        return out;
      },
    };
    // A window far in the future turns the racy guard off: this is the before/after stat check alone.
    expect((await readCachedConfig(racing, { racyMs: -1e9 })).values['capsule.ref']).toBeUndefined();
    expect((await read(dir, env)).values['capsule.ref']).toBe('refs/capsule-memory/late');
  });

  it('starts git every time with CAPSULE_CONFIG_CACHE=0', async () => {
    const off = { ...env, CAPSULE_CONFIG_CACHE: '0' };
    await read(dir, off);
    expect((await read(dir, off)).calls).toBe(1);
  });

  it('reads the config outside a repository without caching', async () => {
    const outside = tempDir();
    dirs.push(outside);
    const r = await read(outside, { ...env, GIT_CEILING_DIRECTORIES: join(outside, '..') });
    expect(r.dirs).toBeNull();
    expect(r.values).toEqual({});
  });
});
