import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli';
import { cleanup, git, makeRepo } from './support/temp-repo';

// Which git write path openStore picks: the in-process commit by default, git fast-import
// wherever git's own settings or the environment must decide how objects and refs are written.
// A `git` shim first on PATH logs every fast-import it is asked for, then runs the real git.
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

function withShim(dir: string, env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; fastImports: () => number } {
  const bin = join(dir, '..', 'shim-bin');
  const log = join(bin, 'fast-import.log');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'git'), `#!/bin/sh\ncase " $* " in *" fast-import "*) echo x >> "${log}" ;; esac\nexec "${REAL_GIT}" "$@"\n`, { mode: 0o755 });
  return {
    env: { ...env, PATH: `${bin}:${env.PATH ?? process.env.PATH}` },
    fastImports: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0),
  };
}

async function writeOne(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const r = await runCli(['write', '--objective', 'write path', '--waiting-on', 'nothing', '--next', 'check'], { cwd: dir, env });
  expect(r).toMatchObject({ code: 0 });
}

describe('openStore, the write path', () => {
  it('commits a capsule in-process, without starting git fast-import, by default', async () => {
    const { dir, env } = makeRepo();
    try {
      expect((await runCli(['init'], { cwd: dir, env })).code).toBe(0);
      const shim = withShim(dir, env);
      const before = shim.fastImports();
      await writeOne(dir, shim.env);
      expect(shim.fastImports() - before).toBe(0);
      expect(git(dir, ['rev-list', '--count', 'capsules'], env)).toBe('2');
      expect(git(dir, ['reflog', '--format=%gs', 'capsules'], env).split('\n')).toHaveLength(2);
      expect(() => git(dir, ['fsck', '--strict', '--no-progress'], env)).not.toThrow();
    } finally {
      cleanup(dir);
    }
  });

  it.each([
    ['core.sharedRepository is set', { config: ['core.sharedRepository', 'group'] }],
    ['core.fsync is set', { config: ['core.fsync', 'loose-object'] }],
    ['CAPSULE_DIRECT_COMMITS=0 asks for git', { env: { CAPSULE_DIRECT_COMMITS: '0' } }],
    ['GIT_OBJECT_DIRECTORY moves the objects', { env: { GIT_OBJECT_DIRECTORY: '.git/objects' } }],
  ] as const)('hands the commit to git fast-import when %s', async (_what, how) => {
    const { dir, env } = makeRepo();
    try {
      expect((await runCli(['init'], { cwd: dir, env })).code).toBe(0);
      if ('config' in how) git(dir, ['config', ...how.config], env);
      const shim = withShim(dir, { ...env, ...('env' in how ? how.env : {}) });
      const before = shim.fastImports();
      await writeOne(dir, shim.env);
      expect(shim.fastImports() - before).toBe(1);
      expect(git(dir, ['rev-list', '--count', 'capsules'], env)).toBe('2');
    } finally {
      cleanup(dir);
    }
  });
});
