import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { countAheadBehind, parseCommitLinks } from '../../lib/git/commit-walk';
import { createGitRunner } from '../../lib/git/git-runner';

/** A repository whose commits get the committer times the test gives (seconds), to build skew on purpose. */
function makeRepo() {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-walk-'));
  const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(dir, '.gitconfig') };
  const git = (args: string[], extra: NodeJS.ProcessEnv = {}) => execFileSync('git', args, { cwd: dir, env: { ...env, ...extra }, encoding: 'utf8' }).trim();
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.name', 'Walk']);
  git(['config', 'user.email', 'walk@example.com']);
  let clock = 1_700_000_000;
  const commit = (message: string, at = (clock += 60)) => {
    const stamp = `@${at} +0000`;
    git(['commit', '-q', '--allow-empty', '-m', message], { GIT_COMMITTER_DATE: stamp, GIT_AUTHOR_DATE: stamp });
    return git(['rev-parse', 'HEAD']);
  };
  const batch = new CatFileBatch(createGitRunner({ cwd: dir, env }));
  /** What git itself answers for `left...right`. */
  const gitCounts = (left: string, right: string) => {
    const [behind, ahead] = git(['rev-list', '--left-right', '--count', `${left}...${right}`]).split(/\s+/).map(Number);
    return { ahead, behind };
  };
  return { dir, git, commit, batch, gitCounts, cleanup: async () => { await batch.close(); rmSync(dir, { recursive: true, force: true }); } };
}

describe('countAheadBehind', () => {
  let repo: ReturnType<typeof makeRepo>;
  beforeEach(() => {
    repo = makeRepo();
  });
  afterEach(() => repo.cleanup());

  it('counts nothing when both sides are one commit', async () => {
    const c = repo.commit('one');
    expect(await countAheadBehind(repo.batch, c, c)).toEqual({ ahead: 0, behind: 0 });
  });

  it('counts the commits HEAD gained on a straight line, as rev-list does', async () => {
    const base = repo.commit('base');
    for (let i = 0; i < 5; i += 1) repo.commit(`work ${i}`);
    const head = repo.git(['rev-parse', 'HEAD']);
    expect(await countAheadBehind(repo.batch, base, head)).toEqual({ ahead: 5, behind: 0 });
    expect(repo.gitCounts(base, head)).toEqual({ ahead: 5, behind: 0 });
  });

  it('counts both sides of diverged branches with a merge in between, as rev-list does', async () => {
    repo.commit('root');
    const fork = repo.commit('fork point');
    repo.git(['checkout', '-q', '-b', 'side']);
    repo.commit('side 1');
    const side = repo.commit('side 2');
    repo.git(['checkout', '-q', 'main']);
    repo.commit('main 1');
    repo.git(['merge', '-q', '--no-ff', '-m', 'merge side', 'side'], { GIT_COMMITTER_DATE: '@1700009000 +0000', GIT_AUTHOR_DATE: '@1700009000 +0000' });
    repo.commit('main 2', 1_700_009_100);
    const head = repo.git(['rev-parse', 'HEAD']);
    repo.git(['checkout', '-q', 'side']);
    const sideTip = repo.commit('side 3', 1_700_009_200);
    for (const [left, right] of [[fork, head], [side, head], [sideTip, head], [head, sideTip]] as const) {
      expect(await countAheadBehind(repo.batch, left, right)).toEqual(repo.gitCounts(left, right));
    }
  });

  it('still counts right when a commit carries a committer time older than its parent', async () => {
    const base = repo.commit('base', 1_700_000_000);
    repo.commit('skewed back', 1_600_000_000);
    repo.commit('normal again', 1_700_000_500);
    const head = repo.git(['rev-parse', 'HEAD']);
    repo.git(['checkout', '-q', '-b', 'other', base]);
    const other = repo.commit('other side', 1_700_000_100);
    expect(await countAheadBehind(repo.batch, other, head)).toEqual(repo.gitCounts(other, head));
  });

  it('counts a parent dated after its child as common when the other side reaches it through that child', async () => {
    // F (dated late) <- E (dated early) <- L; R has both E and F as parents. Only L and R are one-sided.
    const at = (t: number) => ({ GIT_COMMITTER_DATE: `@${t} +0000`, GIT_AUTHOR_DATE: `@${t} +0000` });
    const tree = repo.git(['write-tree']);
    const f = repo.git(['commit-tree', tree, '-m', 'F'], at(1_700_000_800));
    const e = repo.git(['commit-tree', tree, '-p', f, '-m', 'E'], at(1_700_000_100));
    const l = repo.git(['commit-tree', tree, '-p', e, '-m', 'L'], at(1_700_000_900));
    const r = repo.git(['commit-tree', tree, '-p', e, '-p', f, '-m', 'R'], at(1_700_001_000));
    expect(repo.gitCounts(l, r)).toEqual({ ahead: 1, behind: 1 });
    expect(await countAheadBehind(repo.batch, l, r)).toEqual({ ahead: 1, behind: 1 });
  });

  it('gives up (null) past its bound, so the caller asks git', async () => {
    const base = repo.commit('base');
    for (let i = 0; i < 12; i += 1) repo.commit(`work ${i}`);
    const head = repo.git(['rev-parse', 'HEAD']);
    expect(await countAheadBehind(repo.batch, base, head, { limit: 5 })).toBeNull();
  });

  it('gives up (null) on a commit it cannot read, such as a shallow boundary', async () => {
    const base = repo.commit('base');
    const head = repo.commit('next');
    expect(await countAheadBehind(repo.batch, '0'.repeat(40), head)).toBeNull();
    expect(await countAheadBehind(repo.batch, base, head)).toEqual({ ahead: 1, behind: 0 });
  });
});

describe('parseCommitLinks', () => {
  it('reads parents and the committer time, and ignores the message and signature lines', () => {
    const text = 'tree 1111111111111111111111111111111111111111\nparent aaaa\nparent bbbb\nauthor A <a@x> 5 +0000\ncommitter C <c@x> 1700000000 +0200\ngpgsig -----BEGIN-----\n parent cccc\n -----END-----\n\nparent dddd in the message\n';
    expect(parseCommitLinks(Buffer.from(text))).toEqual({ parents: ['aaaa', 'bbbb'], time: 1_700_000_000 });
  });
});
