import { openStore } from '../../lib/store/open-store';
import { capsuleText, cleanup, git, makeRepo } from './support/temp-repo';

describe('init', () => {
  it('gives two fresh repositories the same root commit', async () => {
    const a = makeRepo();
    const b = makeRepo({ empty: true, identity: false });
    const roots: string[] = [];
    for (const repo of [a, b]) {
      const store = await openStore({ cwd: repo.dir, env: repo.env });
      const result = await store.init();
      expect(result.created).toBe(true);
      roots.push(result.root);
      await store.close();
    }
    expect(roots[0]).toBe(roots[1]);
    expect(git(a.dir, ['ls-tree', '--name-only', 'capsules'], a.env)).toBe('FORMAT');
    expect(git(a.dir, ['log', '--format=%an <%ae> %at %s', 'capsules'], a.env)).toBe('git-capsule <git-capsule@localhost> 1767225600 init: git-capsule memory branch');
    cleanup(a.dir, b.dir);
  });

  it('reports the existing root without writing when run again', async () => {
    const { dir, env } = makeRepo();
    const store = await openStore({ cwd: dir, env });
    const first = await store.init();
    const again = await store.init();
    expect(again).toEqual({ root: first.root, created: false });
    expect(git(dir, ['rev-list', '--count', 'capsules'], env)).toBe('1');
    await store.close();
    cleanup(dir);
  });

  it('makes the first write create the same root, so nobody has to run init', async () => {
    const a = makeRepo();
    const b = makeRepo();
    const sa = await openStore({ cwd: a.dir, env: a.env });
    await sa.writeCapsule(capsuleText(), { now: new Date('2026-11-29T20:00:00Z') });
    const sb = await openStore({ cwd: b.dir, env: b.env });
    const { root } = await sb.init();
    expect(git(a.dir, ['rev-list', '--max-parents=0', 'capsules'], a.env)).toBe(root);
    expect(await sa.init()).toEqual({ root, created: false });
    await Promise.all([sa.close(), sb.close()]);
    cleanup(a.dir, b.dir);
  });
});

describe('readJournal', () => {
  it('asks git log for subjects and unfolded trailers, newest first', async () => {
    const { createGitRunner } = await import('../../lib/git/git-runner');
    const { readJournal } = await import('../../lib/store/journal');
    const { recordingRunner } = await import('../git/support/recording-runner');
    const { dir, env } = makeRepo();
    const store = await openStore({ cwd: dir, env });
    const { root } = await store.init();
    await store.close();
    const runner = recordingRunner(createGitRunner({ cwd: dir, env }));
    expect(await readJournal(runner, root, { limit: 5 })).toEqual([{ commit: root, date: '2026-01-01T00:00:00+00:00', subject: 'init: git-capsule memory branch', trailers: { 'Capsule-Op': 'init' } }]);
    expect(runner.calls[0]!.args).toEqual(['log', '--no-color', '--format=%H\x1f%cI\x1f%s\x1f%(trailers:only,unfold)\x1e', '--max-count=5', root, '--']);
    cleanup(dir);
  });
});
