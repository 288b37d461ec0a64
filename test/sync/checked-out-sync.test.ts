import { join } from 'node:path';
import { runCli } from '../support/run-cli';
import { capsuleText, git, makeTrio, refOf, REMOTE_REF, removeTrio, sync, writeCapsules, type Trio } from './sync-trio';

// Issue 16, item 6, for every path that moves the memory ref besides the hooks' writes: sync
// (fast-forward, merge, publish), compact and retirement. Moving a branch a worktree has checked
// out moves that worktree's HEAD under its files; git-capsule refuses and moves nothing.
const REF = 'refs/heads/capsules';
let trio: Trio;
beforeEach(async () => {
  trio = makeTrio();
  await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
  await sync(trio.a, trio.env);
  await writeCapsules(trio.b, trio.env, [capsuleText(2)]);
  await sync(trio.b, trio.env); // the remote is ahead of a: a's next sync would fast-forward
});
afterEach(() => removeTrio(trio));

describe.each([
  ['a linked worktree', (): string => {
    const wt = join(trio.root, 'memory-wt');
    git(trio.a, ['worktree', 'add', '-q', wt, 'capsules'], trio.env);
    return wt;
  }],
  ['the main worktree', (): string => {
    git(trio.a, ['switch', '-q', 'capsules'], trio.env);
    return trio.a;
  }],
])('the memory branch checked out in %s', (_where, checkOut) => {
  it('is not moved by a sync, with or without push, which says why; the sync goes through once it is free', async () => {
    const wt = checkOut();
    const tip = refOf(trio.a, trio.env);
    for (const opts of [{ push: false }, {}]) {
      await expect(sync(trio.a, trio.env, opts)).rejects.toMatchObject({ code: 'MEMORY_REF_CHECKED_OUT' });
      expect(refOf(trio.a, trio.env)).toBe(tip);
      expect(git(wt, ['status', '--porcelain'], trio.env)).toBe('');
    }
    git(wt, ['switch', '-q', '--detach'], trio.env);
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'fast-forward', local: { after: refOf(trio.remote, trio.env, REMOTE_REF) } });
  });

  it('is not moved by compact, nor by compact --rewrite-remote, which rewrites nothing on the remote', async () => {
    const wt = checkOut();
    const tip = refOf(trio.a, trio.env);
    const remoteTip = refOf(trio.remote, trio.env, REMOTE_REF);
    for (const args of [['compact'], ['compact', '--rewrite-remote', 'origin']]) {
      const r = await runCli(args, { cwd: trio.a, env: trio.env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('MEMORY_REF_CHECKED_OUT');
      expect(refOf(trio.a, trio.env)).toBe(tip);
      expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(remoteTip);
      expect(git(wt, ['status', '--porcelain'], trio.env)).toBe('');
    }
  });
});
