import { isCapsuleError } from '../../lib/errors/capsule-error';
import { capsuleText, cloneInto, git, makeTrio, refOf, REMOTE_REF, removeTrio, setStatus, statuses, SYNC_NOW, testId, writeCapsules, type Trio } from '../sync/sync-trio';
import { syncMemory, type SyncReport } from '../../lib/sync/sync-memory';

// A team's worth of clones syncing at the same moment against one bare remote: every push but
// one per round is rejected (the remote moved), and each loser fetches, merges and pushes again
// with its randomised pause, up to five rounds, then SYNC_RACE_LOST (its capsules stay merged
// locally; the person runs sync again). Nothing may be lost on the way, and after one more
// sync each, every clone holds what the remote holds. In the hardening lane: twenty clones
// racing through up to five merges each is minutes of git on a loaded machine.

const CLONES = 20;
jest.setTimeout(600_000);

let trio: Trio;
let clones: string[];
beforeAll(() => {
  trio = makeTrio();
  clones = [trio.a, trio.b, ...Array.from({ length: CLONES - 2 }, (_, i) => cloneInto(trio, `c${i}`))];
});
afterAll(() => removeTrio(trio));

describe('20 clones syncing at once against one bare remote', () => {
  it('lose no capsule or status event, count their push attempts, and all converge on the remote tip', async () => {
    // Each clone: two capsules of its own, one of them resolved (a status event).
    for (const [i, dir] of clones.entries()) {
      await writeCapsules(dir, trio.env, [capsuleText(2 * i + 1), capsuleText(2 * i + 2)]);
      await setStatus(dir, trio.env, testId(2 * i + 2), 'resolved', `writer${i}`);
    }
    const outcomes = await Promise.all(clones.map((dir) => syncMemory({ cwd: dir, env: trio.env, now: SYNC_NOW }).then((r): SyncReport | string => r, (err: unknown) => (isCapsuleError(err) ? err.code : String(err)))));
    const reports = outcomes.filter((o): o is SyncReport => typeof o !== 'string');
    const lost = outcomes.filter((o): o is string => typeof o === 'string');
    // Only a race lost five times over may fail, never anything else.
    expect(lost.filter((code) => code !== 'SYNC_RACE_LOST')).toEqual([]);
    const attempts = reports.reduce((n, r) => n + r.attempts, 0) + lost.length * 5;
    // Whoever lost runs sync again, as the message says; then everyone syncs once more, one after the other.
    const again: SyncReport[] = [];
    for (const [i, o] of outcomes.entries()) if (typeof o === 'string') again.push(await syncMemory({ cwd: clones[i]!, env: trio.env, now: SYNC_NOW }));
    for (const dir of clones) again.push(await syncMemory({ cwd: dir, env: trio.env, now: SYNC_NOW }));
    process.stderr.write(`${CLONES} clones syncing at once: ${reports.length} pushed in the round, ${lost.length} lost the race five times (SYNC_RACE_LOST) and synced again; ${attempts} push attempts in the round (at most ${Math.max(...reports.map((r) => r.attempts))} by one clone)\n`);

    expect(reports.filter((r) => r.pushed).length).toBeGreaterThanOrEqual(1);
    const tip = refOf(trio.remote, trio.env, REMOTE_REF);
    const expected = Object.fromEntries(clones.flatMap((_, i) => [[testId(2 * i + 1), 'active'], [testId(2 * i + 2), 'resolved']]));
    // Every status event of every clone is on the remote: the events are files, one per writer.
    const events = git(trio.remote, ['ls-tree', '-r', '--name-only', REMOTE_REF, 'capsules'], trio.env).split('\n').filter((p) => p.includes('/status/'));
    expect(events.length).toBe(CLONES);
    for (const dir of clones) {
      expect(refOf(dir, trio.env)).toBe(tip);
      expect(await statuses(dir, trio.env)).toEqual(expected);
    }
  });
});
