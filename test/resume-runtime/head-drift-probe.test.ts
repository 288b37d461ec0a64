import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { createGitRunner } from '../../lib/git/git-runner';
import { parseRepoDirs, REV_PARSE_DIRS } from '../../lib/git/repo-dirs';
import { measureHeadDrift } from '../../lib/resume-runtime/head-drift-probe';
import { makeTestRepo, type TestRepo } from './repo';

describe('measureHeadDrift', () => {
  let repo: TestRepo;
  let batch: CatFileBatch;
  beforeEach(() => {
    repo = makeTestRepo(1);
    batch = new CatFileBatch(createGitRunner({ cwd: repo.dir, env: repo.env }));
  });
  afterEach(async () => {
    await batch.close();
    repo.cleanup();
  });

  const source = (cwd = repo.dir) => ({ readObject: (name: string) => batch.read(name), repoDirs: () => parseRepoDirs(repo.git(['-C', cwd, ...REV_PARSE_DIRS]), cwd) });
  /** An environment in which the probe cannot start git: whatever it answers, it answered without a process. */
  const noGit = () => ({ ...repo.env, PATH: '' });
  const commit = (message: string) => {
    repo.git(['commit', '-q', '--allow-empty', '-m', message]);
    return repo.git(['rev-parse', 'HEAD']);
  };

  it('measures how far HEAD moved from the git files and the open reader, without starting git', async () => {
    const base = repo.git(['rev-parse', 'HEAD']);
    commit('two');
    const head = commit('three');
    expect(await measureHeadDrift(source(), noGit(), base)).toEqual({ state: 'measured', head, branch: 'main', ahead: 2, behind: 0 });
  });

  it('names a detached HEAD by its commit alone, still without git', async () => {
    const base = repo.git(['rev-parse', 'HEAD']);
    const head = commit('two');
    repo.git(['checkout', '-q', '--detach', head]);
    expect(await measureHeadDrift(source(), noGit(), base)).toEqual({ state: 'measured', head, branch: null, ahead: 1, behind: 0 });
  });

  it('reads HEAD where git keeps it after pack-refs (packed-refs only)', async () => {
    const base = repo.git(['rev-parse', 'HEAD']);
    const head = commit('two');
    repo.git(['pack-refs', '--all', '--prune']);
    expect(await measureHeadDrift(source(), noGit(), base)).toMatchObject({ state: 'measured', head, ahead: 1 });
  });

  it("reads a linked worktree's own HEAD", async () => {
    const base = repo.git(['rev-parse', 'HEAD']);
    const wt = join(repo.dir, '..', 'wt');
    repo.git(['worktree', 'add', '-q', '-b', 'side', wt]);
    repo.git(['-C', wt, 'commit', '-q', '--allow-empty', '-m', 'on side']);
    const head = repo.git(['-C', wt, 'rev-parse', 'HEAD']);
    expect(await measureHeadDrift(source(wt), noGit(), base)).toEqual({ state: 'measured', head, branch: 'side', ahead: 1, behind: 0 });
  });

  it('says a repo_head this repository does not have is an unknown commit', async () => {
    expect(await measureHeadDrift(source(), noGit(), 'f'.repeat(40))).toEqual({ state: 'unknown-commit' });
  });

  it('asks git when replace refs could change what rev-list counts, and gets its answer', async () => {
    const base = repo.git(['rev-parse', 'HEAD']);
    const two = commit('two');
    commit('three');
    repo.git(['replace', '--graft', two]); // "two" now reads as a root: base is no longer an ancestor of HEAD
    expect(await measureHeadDrift(source(), noGit(), base)).toEqual({ state: 'unavailable', why: 'GIT_MISSING' });
    const [behind, ahead] = repo.git(['rev-list', '--left-right', '--count', `${base}...HEAD`]).split(/\s+/).map(Number);
    expect(await measureHeadDrift(source(), repo.env, base)).toMatchObject({ state: 'measured', ahead, behind });
  });

  it('asks git in a shallow clone, whose boundary rev-list honours and a plain commit read does not', async () => {
    const base = repo.git(['rev-parse', 'HEAD']);
    const two = commit('two');
    commit('three');
    writeFileSync(join(repo.dir, '.git', 'shallow'), `${two}\n`); // "two" is a boundary: rev-list sees no parent
    expect(await measureHeadDrift(source(), noGit(), base)).toEqual({ state: 'unavailable', why: 'GIT_MISSING' });
    const [behind, ahead] = repo.git(['rev-list', '--left-right', '--count', `${base}...HEAD`]).split(/\s+/).map(Number);
    expect(behind).toBe(1);
    expect(await measureHeadDrift(source(), repo.env, base)).toMatchObject({ state: 'measured', ahead, behind });
  });

  it('asks git when HEAD has no commit yet, which says so', async () => {
    const base = repo.git(['rev-parse', 'HEAD']);
    repo.git(['checkout', '-q', '--orphan', 'empty']);
    expect(await measureHeadDrift(source(), repo.env, base)).toEqual({ state: 'unavailable', why: 'the project has no commit at HEAD yet' });
  });
});
