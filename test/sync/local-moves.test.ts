import { createGitRunner } from '../../lib/git/git-runner';
import { keepRef, moveRef } from '../../lib/sync/local-moves';
import { cleanup, git, makeRepo } from '../store/support/temp-repo';

// moveRef is the compare-and-swap every sync ends with: the local branch moves only from the tip
// the sync read, and the tip it replaces is kept under refs/capsule-history/ in the same transaction.

describe('moveRef', () => {
  let repo: ReturnType<typeof makeRepo>;
  let a: string;
  let b: string;
  beforeEach(() => {
    repo = makeRepo();
    a = git(repo.dir, ['rev-parse', 'HEAD'], repo.env);
    git(repo.dir, ['commit', '-q', '--allow-empty', '-m', 'second'], repo.env);
    b = git(repo.dir, ['rev-parse', 'HEAD'], repo.env);
    git(repo.dir, ['update-ref', 'refs/heads/capsules', a], repo.env);
  });
  afterEach(() => cleanup(repo.dir));

  const runner = () => createGitRunner({ cwd: repo.dir, env: repo.env });

  it('moves the ref from the tip it was read at and keeps the replaced tip', async () => {
    const keep = keepRef('refs/heads/capsules', a, new Date('2026-12-01T10:00:00Z'), 14)!;
    expect(await moveRef(runner(), { ref: 'refs/heads/capsules', to: b, from: a, keep })).toEqual({ ok: true });
    expect(git(repo.dir, ['rev-parse', 'refs/heads/capsules', keep], repo.env).split('\n')).toEqual([b, a]);
  });

  it('refuses when the ref moved since it was read, moving and keeping nothing', async () => {
    const keep = keepRef('refs/heads/capsules', b, new Date('2026-12-01T10:00:00Z'), 14)!;
    expect(await moveRef(runner(), { ref: 'refs/heads/capsules', to: a, from: b, keep })).toMatchObject({ ok: false });
    expect(git(repo.dir, ['rev-parse', 'refs/heads/capsules'], repo.env)).toBe(a);
    expect(git(repo.dir, ['for-each-ref', 'refs/capsule-history/'], repo.env)).toBe('');
  });

  it('takes a kept-history ref that already keeps that very tip (the same second, the same commit) as kept, not as a lost race', async () => {
    const keep = keepRef('refs/heads/capsules', a, new Date('2026-12-01T10:00:00Z'), 14)!;
    git(repo.dir, ['update-ref', keep, a], repo.env);
    expect(await moveRef(runner(), { ref: 'refs/heads/capsules', to: b, from: a, keep })).toEqual({ ok: true });
    expect(git(repo.dir, ['rev-parse', 'refs/heads/capsules', keep], repo.env).split('\n')).toEqual([b, a]);
  });
});
