import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { locateRuntime } from '../../lib/local-state/runtime-dir';
import { git, makeTempDir, makeTempRepo, type TempRepo } from '../hooks/hook-fixtures';

describe('locateRuntime', () => {
  let repo: TempRepo;
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => repo.cleanup());

  const gitCommonDir = (cwd: string) => realpathSync(resolve(cwd, git(cwd, 'rev-parse', '--git-common-dir')));

  it('finds the same common dir as git from a subfolder', () => {
    const loc = locateRuntime(join(repo.dir, 'sub', 'deeper'), {});
    expect(loc.commonDir).toBe(gitCommonDir(repo.dir));
    expect(loc.runtimeDir).toBe(join(gitCommonDir(repo.dir), 'capsule'));
  });

  it('follows a linked worktree to the main repository common dir', () => {
    const wt = join(repo.dir, '..', 'wt');
    git(repo.dir, 'worktree', 'add', '-q', wt);
    expect(locateRuntime(wt, {}).commonDir).toBe(gitCommonDir(wt));
    expect(locateRuntime(wt, {}).commonDir).toBe(gitCommonDir(repo.dir));
  });

  it('uses CAPSULE_STATE_DIR for the runtime dir when set', () => {
    expect(locateRuntime(repo.dir, { CAPSULE_STATE_DIR: repo.stateDir }).runtimeDir).toBe(repo.stateDir);
  });

  it('returns null outside a repository', () => {
    const outside = makeTempDir();
    try {
      expect(locateRuntime(outside.dir, {})).toEqual({ gitDir: null, commonDir: null, runtimeDir: null, walked: null });
    } finally {
      outside.cleanup();
    }
  });
});
