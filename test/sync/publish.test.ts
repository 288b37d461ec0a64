import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { createGitRunner } from '../../lib/git/git-runner';
import { publishCommit } from '../../lib/sync/publish-commit';
import { capsuleText, cloneInto, git, makeTrio, refOf, REMOTE_REF, removeTrio, setStatus, statuses, sync, testId, writeCapsules, type Trio } from './sync-trio';

// Publish state, not keystrokes: the remote gets what the memory holds, in one commit per sync,
// while the commit per turn stays local.

const REF = 'refs/heads/capsules';
jest.setTimeout(120_000);
let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

/** `turns` autosaves of one session, each rewriting its capsule, as the Stop hook commits them. */
async function autosaveTurns(dir: string, n: number, turns: number, from = 0): Promise<void> {
  const texts = Array.from({ length: turns }, (_, t) => capsuleText(n, { trigger: 'autosave', session_id: `S${n}`, updated_at: `2026-11-29T21:${String(from + t).padStart(2, '0')}:00Z`, objective: `turn ${from + t}` }));
  for (const text of texts) await writeCapsules(dir, trio.env, [text], { replace: true });
}

const subjects = (dir: string, ref: string) => git(dir, ['log', '--format=%s', ref], trio.env).split('\n');

describe('what a sync publishes', () => {
  it('pushes a session of per-turn commits as one commit naming each operation, by the local committer', async () => {
    await autosaveTurns(trio.a, 1, 30);
    await setStatus(trio.a, trio.env, testId(1), 'paused', 'a');
    expect(git(trio.a, ['rev-list', '--count', REF], trio.env)).toBe('32');
    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'push', pushed: true, published: 1, localCommits: 31 });
    expect(subjects(trio.remote, REMOTE_REF)).toEqual(['publish: 1 capsule, 1 status event (31 local commits)', 'init: git-capsule memory branch']);
    const body = git(trio.remote, ['log', '-1', '--format=%b%n%an <%ae>', REMOTE_REF], trio.env);
    expect(body).toContain(`write ${testId(1)}: turn 29`);
    expect(body).toMatch(new RegExp(`status ${testId(1)} -> paused`));
    expect(body).toContain('Capsule-Op: publish');
    expect(body).toContain('User a <a@example.com>');
    expect(git(trio.remote, ['rev-parse', `${REMOTE_REF}^{tree}`], trio.env)).toBe(git(trio.a, ['rev-parse', `${report.keptLocal}^{tree}`], trio.env));
  });

  it('pushes one commit when both sides moved: the union of both on top of the remote tip, by the local committer', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await autosaveTurns(trio.a, 2, 10);
    await autosaveTurns(trio.b, 3, 12);
    await sync(trio.a, trio.env);
    const before = refOf(trio.remote, trio.env, REMOTE_REF)!;
    const merged = await sync(trio.b, trio.env);
    expect(merged).toMatchObject({ action: 'merge', pushed: true, published: 1, localCommits: 12 });
    expect(git(trio.remote, ['rev-list', '--parents', `${before}..${REMOTE_REF}`], trio.env)).toBe(`${merged.local.after} ${before}`);
    // It names what it adds to the remote (b's capsule), not what the remote already had (a's).
    expect(subjects(trio.remote, `${before}..${REMOTE_REF}`)).toEqual(['publish: 1 capsule, 0 status events (12 local commits)']);
    const body = git(trio.remote, ['log', '-1', '--format=%b%n%an <%ae>', REMOTE_REF], trio.env);
    expect(body).toContain(`write ${testId(3)}: turn 11`);
    expect(body).not.toContain(testId(2));
    expect(body).toContain('User b <b@example.com>');
    // Only what b adds is written: a's capsule is the very blob a published.
    const blob = (ref: string, n: number) => git(trio.remote, ['ls-tree', '-r', ref], trio.env).split('\n').find((l) => l.includes(`${testId(n)}/capsule.md`))?.split(/\s/)[2];
    expect(blob(REMOTE_REF, 2)).toBe(blob(before, 2));
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'fast-forward', incoming: { capsules: 1 } });
    expect(await statuses(trio.a, trio.env)).toEqual(await statuses(trio.b, trio.env));
    expect(Object.keys(await statuses(trio.a, trio.env)).sort()).toEqual([testId(1), testId(2), testId(3)].sort());
  });

  it('adds no commit when the remote already holds all of the local state, and keeps the replaced local tip', async () => {
    await autosaveTurns(trio.a, 1, 4);
    const turns = refOf(trio.a, trio.env)!;
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.b, trio.env, [capsuleText(2)]);
    await sync(trio.b, trio.env);
    // a's branch back on its per-turn commits (a sync killed after its push, then restored), while the remote moved on.
    git(trio.a, ['update-ref', REF, turns], trio.env);
    const remoteTip = refOf(trio.remote, trio.env, REMOTE_REF);
    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'fast-forward', pushed: false, published: 0 });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(remoteTip);
    expect(refOf(trio.a, trio.env)).toBe(remoteTip);
    expect(refOf(trio.a, trio.env, report.keptLocal!)).toBe(turns);
  });

  it('publishes one plain commit on top of the remote as it is', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    const tip = refOf(trio.a, trio.env);
    expect(await sync(trio.a, trio.env)).toMatchObject({ pushed: true, published: 1, keptLocal: null });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(tip);
  });

  it('builds the same publish commit from the same tip and base, so a sync run again after a kill adds nothing', async () => {
    await autosaveTurns(trio.a, 1, 5);
    const tip = refOf(trio.a, trio.env)!;
    const root = git(trio.a, ['rev-list', '--max-parents=0', REF], trio.env);
    const runner = createGitRunner({ cwd: trio.a, env: trio.env });
    const batch = new CatFileBatch(runner);
    try {
      const identity = { name: 'User a', email: 'a@example.com' };
      const one = await publishCommit(runner, batch, { tip, base: root, identity });
      const two = await publishCommit(runner, batch, { tip, base: root, identity });
      expect(one).toMatchObject({ created: true, localCommits: 5 });
      expect(two.commit).toBe(one.commit);
      expect(git(trio.a, ['rev-parse', `${one.commit}^`], trio.env)).toBe(root);
    } finally {
      await batch.close();
    }
    // Killed after its push, before anything else: the local tip is the old one again, and the next sync finds its state there.
    await sync(trio.a, trio.env);
    const remoteTip = refOf(trio.remote, trio.env, REMOTE_REF);
    git(trio.a, ['update-ref', REF, tip], trio.env);
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'fast-forward', pushed: false });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(remoteTip);
  });
});

describe('a write that lands while the sync pushes', () => {
  it('is not pushed (the sync pushes the commit it built) and stays local for the next sync', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(2), capsuleText(3)]);
    let late = '';
    const report = await sync(trio.a, trio.env, {
      progress: (line) => {
        if (!line.includes('pushing') || late) return;
        // A Stop hook commits on top of the branch the sync has just moved.
        late = git(trio.a, ['commit-tree', `${REF}^{tree}`, '-p', REF, '-m', 'a late turn'], trio.env);
        git(trio.a, ['update-ref', REF, late], trio.env);
      },
    });
    expect(report).toMatchObject({ pushed: true, published: 1 });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(report.local.after);
    expect(spawnSync('git', ['cat-file', '-e', late], { cwd: trio.remote, env: trio.env }).status).not.toBe(0);
    expect(refOf(trio.a, trio.env)).toBe(late);
  });
});

describe('the local per-turn history', () => {
  it('stays under refs/capsule-history for capsule.localHistoryDays, then goes', async () => {
    const day = (d: number) => () => new Date(Date.UTC(2026, 10, d, 12));
    await autosaveTurns(trio.a, 1, 6);
    const first = refOf(trio.a, trio.env)!;
    const r1 = await sync(trio.a, trio.env, { now: day(1) });
    expect(r1.keptLocal).toMatch(/^refs\/capsule-history\/heads\/capsules\/20261101T120000000Z-/);
    expect(refOf(trio.a, trio.env, r1.keptLocal!)).toBe(first);
    expect(git(trio.a, ['rev-list', '--count', r1.keptLocal!], trio.env)).toBe('7');
    await autosaveTurns(trio.a, 1, 6, 10);
    const r2 = await sync(trio.a, trio.env, { now: day(10) });
    expect(refOf(trio.a, trio.env, r1.keptLocal!)).toBe(first);
    await autosaveTurns(trio.a, 1, 6, 20);
    const r3 = await sync(trio.a, trio.env, { now: day(16) });
    const kept = git(trio.a, ['for-each-ref', '--format=%(refname)', 'refs/capsule-history/'], trio.env).split('\n');
    expect(kept).toEqual([r2.keptLocal, r3.keptLocal]);
  });

  it('is not kept with capsule.localHistoryDays 0', async () => {
    git(trio.a, ['config', 'capsule.localHistoryDays', '0'], trio.env);
    await autosaveTurns(trio.a, 1, 4);
    expect(await sync(trio.a, trio.env)).toMatchObject({ pushed: true, keptLocal: null });
    expect(git(trio.a, ['for-each-ref', 'refs/capsule-history/'], trio.env)).toBe('');
  });
});

describe('a project clone', () => {
  it('downloads no memory history with a plain git clone or git fetch', async () => {
    await autosaveTurns(trio.a, 1, 5);
    await sync(trio.a, trio.env);
    const memory = git(trio.remote, ['rev-list', '--objects', REMOTE_REF], trio.env).split('\n').map((l) => l.split(' ')[0]!);
    const fresh = join(trio.root, 'fresh');
    git(trio.root, ['clone', '-q', '--no-local', trio.remote, fresh], trio.env);
    git(trio.b, ['fetch', '-q', 'origin'], trio.env);
    for (const dir of [fresh, trio.b]) {
      expect(git(dir, ['for-each-ref', '--format=%(refname)'], trio.env)).not.toMatch(/capsule/);
      const present = spawnSync('git', ['cat-file', '--batch-check'], { cwd: dir, env: trio.env, input: `${memory.join('\n')}\n`, encoding: 'utf8' }).stdout.split('\n').filter((l) => l !== '' && !l.endsWith(' missing'));
      // Only the objects the project itself has (none of a memory tree shares a blob with a code commit here).
      expect(present).toEqual([]);
    }
    // git capsule sync brings it.
    const c = cloneInto(trio, 'c');
    expect(await sync(c, trio.env)).toMatchObject({ action: 'fast-forward', incoming: { capsules: 1 } });
  });
});
