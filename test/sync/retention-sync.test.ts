import { capsuleDir, retiredPath } from '../../lib/store/memory-format';
import { capsuleText, git, makeTrio, refOf, REMOTE_REF, removeTrio, setStatus, statuses, sync, testId, writeCapsules, type Trio } from './sync-trio';

// Retention through sync: a capsule retired on one clone stays retired on every clone, whatever
// they still hold of it, and nothing unfinished or recent is ever retired.

jest.setTimeout(120_000);
let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

const DEC = () => new Date('2026-12-31T12:00:00Z');

describe('retention through sync', () => {
  it('retires a finished capsule past the age before publishing, and no merge brings it back', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2), capsuleText(3)]);
    await setStatus(trio.a, trio.env, testId(1), 'resolved', 'a', '2026-11-29T22:00:00Z');
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    // b still holds it, never retires anything itself, and adds a status event of its own to another capsule.
    git(trio.b, ['config', 'capsule.retireAfterDays', 'never'], trio.env);
    await setStatus(trio.b, trio.env, testId(2), 'paused', 'b', '2026-12-30T10:00:00Z');
    const a = await sync(trio.a, trio.env, { now: DEC });
    expect(a).toMatchObject({ retired: 1, pushed: true });
    expect(git(trio.remote, ['log', '-1', '--format=%B', REMOTE_REF], trio.env)).toContain(`retire ${testId(1)}`);
    await sync(trio.b, trio.env, { now: DEC });
    await sync(trio.a, trio.env, { now: DEC });
    for (const dir of [trio.a, trio.b]) {
      expect(await statuses(dir, trio.env)).toEqual({ [testId(2)]: 'paused', [testId(3)]: 'active' });
      const files = git(dir, ['ls-tree', '-r', '--name-only', 'refs/heads/capsules'], trio.env);
      expect(files).toContain(retiredPath(testId(1)));
      expect(files).not.toContain(capsuleDir(testId(1)));
    }
    expect(refOf(trio.a, trio.env)).toBe(refOf(trio.remote, trio.env, REMOTE_REF));
  });

  it('keeps finished capsules at the tip with capsule.retireAfterDays never', async () => {
    git(trio.a, ['config', 'capsule.retireAfterDays', 'never'], trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await setStatus(trio.a, trio.env, testId(1), 'resolved', 'a', '2026-11-29T22:00:00Z');
    expect(await sync(trio.a, trio.env, { now: DEC })).toMatchObject({ retired: 0 });
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'resolved' });
  });
});
