import { createGitRunner } from '../../../lib/git/git-runner';
import { pushRewritten } from '../../../lib/sync/compact-history';
import { runCli } from '../../support/run-cli';
import { capsuleText, git, makeTrio, refOf, REMOTE_REF, removeTrio, setStatus, statuses, sync, testId, writeCapsules, type Trio } from '../../sync/sync-trio';

jest.setTimeout(180_000);
let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

const LATER = new Date('2027-06-01T12:00:00Z');
const compact = (dir: string, args: string[] = []) => runCli(['compact', '--json', ...args], { cwd: dir, env: trio.env, now: LATER });

describe('git capsule compact', () => {
  it('retires old finished capsules, drops expired local history and packs, rewriting nothing anyone else holds', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
    await setStatus(trio.a, trio.env, testId(1), 'resolved', 'a');
    await sync(trio.a, trio.env, { now: () => new Date('2026-11-30T00:00:00Z') });
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]);
    await setStatus(trio.a, trio.env, testId(3), 'paused', 'a');
    await sync(trio.a, trio.env, { now: () => new Date('2026-11-30T00:00:00Z') });
    const remoteBefore = refOf(trio.remote, trio.env, REMOTE_REF);
    expect(git(trio.a, ['for-each-ref', 'refs/capsule-history/'], trio.env)).not.toBe('');
    const r = await compact(trio.a);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ retired: 1, forgotten: 0, localHistoryDropped: 2, rewrite: null });
    expect(git(trio.a, ['for-each-ref', 'refs/capsule-history/'], trio.env)).toBe('');
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(remoteBefore);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(2)]: 'active', [testId(3)]: 'paused' });
    expect(git(trio.a, ['count-objects', '-v'], trio.env)).toMatch(/^count: 0$/m);
  });

  it('--rewrite-remote folds history older than capsule.keepHistoryDays on the remote, and no other clone loses anything or pushes the old history back', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await setStatus(trio.a, trio.env, testId(1), 'paused', 'a', '2027-05-20T10:00:00Z');
    await sync(trio.a, trio.env);
    await setStatus(trio.b, trio.env, testId(2), 'resumed', 'b', '2027-05-21T10:00:00Z');
    const oldLine = git(trio.remote, ['rev-list', REMOTE_REF], trio.env).split('\n');
    const treeBefore = git(trio.remote, ['rev-parse', `${REMOTE_REF}^{tree}`], trio.env);
    const r = await compact(trio.a, ['--rewrite-remote', 'origin']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.rewrite).toMatchObject({ remote: 'origin', ref: REMOTE_REF, kept: 1 });
    expect(report.rewrite.folded).toBeGreaterThan(1);
    expect(git(trio.remote, ['rev-parse', `${REMOTE_REF}^{tree}`], trio.env)).toBe(treeBefore);
    expect(git(trio.remote, ['log', '--format=%s', REMOTE_REF], trio.env).split('\n')).toEqual([`status ${testId(1)}: active -> paused`, expect.stringMatching(/^compact: \d+ commits up to 2026-11-29 folded into this one$/), 'init: git-capsule memory branch']);
    expect(refOf(trio.a, trio.env)).toBe(refOf(trio.remote, trio.env, REMOTE_REF));
    // b still holds the old line and a write of its own: its sync publishes its state on the new line.
    const b = await sync(trio.b, trio.env);
    // One publish commit on the remote's new tip holds the union (no merge commit beside it: issue 21).
    expect(b).toMatchObject({ action: 'merge', pushed: true, published: 1 });
    expect(git(trio.remote, ['rev-list', '--parents', '-1', REMOTE_REF], trio.env).split(' ')).toHaveLength(2);
    const newLine = new Set(git(trio.remote, ['rev-list', REMOTE_REF], trio.env).split('\n'));
    expect(oldLine.filter((c) => newLine.has(c))).toEqual([oldLine[oldLine.length - 1]]);
    await sync(trio.a, trio.env);
    for (const dir of [trio.a, trio.b]) expect(await statuses(dir, trio.env)).toEqual({ [testId(1)]: 'paused', [testId(2)]: 'resumed', [testId(3)]: 'active' });
  });

  it('never overwrites a push someone made since: the lease refuses it', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    const stale = refOf(trio.remote, trio.env, REMOTE_REF)!;
    await sync(trio.b, trio.env);
    await writeCapsules(trio.b, trio.env, [capsuleText(2)]);
    await sync(trio.b, trio.env);
    const now = refOf(trio.remote, trio.env, REMOTE_REF);
    const root = git(trio.a, ['rev-list', '--max-parents=0', 'refs/heads/capsules'], trio.env);
    await expect(pushRewritten(createGitRunner({ cwd: trio.a, env: trio.env }), 'origin', { source: root, ref: REMOTE_REF, expected: stale })).rejects.toMatchObject({ code: 'PUSH_REJECTED' });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(now);
  });

  it('exits 2 on a remote without --rewrite-remote', async () => {
    expect((await compact(trio.a, ['origin'])).code).toBe(2);
  });
});
