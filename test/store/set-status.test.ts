import { capsuleDir } from '../../lib/store/memory-format';
import { openTempStore } from './support/open-temp-store';
import { capsuleText, git, testId } from './support/temp-repo';

const NOW = new Date('2026-11-29T21:00:00Z');

describe('setStatus', () => {
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeEach(async () => {
    t = await openTempStore();
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
  });
  afterEach(() => t.done());

  it('adds one small event file named <stamp>-<writer>-<status>', async () => {
    const result = await t.store.setStatus(testId(1), 'resumed', { writer: 'session/abc 1', now: NOW });
    expect(result).toMatchObject({ status: 'resumed', changed: true });
    const files = git(t.dir, ['ls-tree', '-r', '--name-only', 'capsules', `${capsuleDir(testId(1))}/status`], t.env);
    expect(files).toBe(`capsules/2024-11-27/${testId(1)}/status/20261129T210000000Z-session_abc_1-resumed`);
    expect(git(t.dir, ['log', '-1', '--format=%s', 'capsules'], t.env)).toBe(`status ${testId(1)}: active -> resumed`);
  });

  it('derives the status as the lattice maximum of the events', async () => {
    await t.store.setStatus(testId(1), 'paused', { writer: 'a', now: NOW });
    await t.store.setStatus(testId(1), 'resolved', { writer: 'b', now: new Date(NOW.getTime() + 1000) });
    const record = await t.store.readCapsule(testId(1));
    expect(record.status).toBe('resolved');
    expect(record.events.map((e) => e.status)).toEqual(['paused', 'resolved']);
  });

  it('refuses a backward move with STATUS_BACKWARD and its reason, writing nothing', async () => {
    await t.store.setStatus(testId(1), 'resumed', { writer: 'a', now: NOW });
    const tip = await t.store.tip();
    await expect(t.store.setStatus(testId(1), 'active', { writer: 'a', now: NOW })).rejects.toMatchObject({
      code: 'STATUS_BACKWARD',
      data: { id: testId(1), from: 'resumed', to: 'active', reason: expect.stringContaining('parent_capsule_id') },
    });
    expect(await t.store.tip()).toBe(tip);
  });

  it('writes nothing when the capsule already has the status', async () => {
    const first = await t.store.setStatus(testId(1), 'resumed', { writer: 'a', now: NOW });
    const second = await t.store.setStatus(testId(1), 'resumed', { writer: 'b', now: new Date(NOW.getTime() + 5) });
    expect(second).toEqual({ id: testId(1), commit: first.commit, status: 'resumed', changed: false });
  });

  it('counts the frontmatter status in the lattice', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(2), status: 'resolved' }), { now: NOW });
    await expect(t.store.setStatus(testId(2), 'resumed', { writer: 'a', now: NOW })).rejects.toMatchObject({ code: 'STATUS_BACKWARD', data: { from: 'resolved' } });
  });

  it('throws NOT_FOUND for an unknown id and STATUS_UNKNOWN for an unknown status', async () => {
    await expect(t.store.setStatus(testId(9), 'resumed', { writer: 'a', now: NOW })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(t.store.setStatus(testId(1), 'done' as never, { writer: 'a', now: NOW })).rejects.toMatchObject({ code: 'STATUS_UNKNOWN' });
  });
});
