import { capsuleDir, retiredPath } from '../../lib/store/memory-format';
import { RETENTION_DEFAULTS, retentionFrom } from '../../lib/store/retention';
import { openTempStore } from './support/open-temp-store';
import { capsuleText, git } from './support/temp-repo';

const NOW = new Date('2026-12-15T12:00:00Z');
const RETENTION = { retireAfterDays: 30, keepHistoryDays: 90 };
const OLD = '2026-10-01T09:00:00Z';
const id = (n: number) => `01M40FVQM0000000000000000${n}`;

describe('retireFinished', () => {
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeEach(async () => (t = await openTempStore()));
  afterEach(() => t.done());

  it('takes a finished capsule past the age off the tip, in one commit, with a tombstone; the history keeps it', async () => {
    await t.store.writeCapsule(capsuleText({ id: id(1), created_at: OLD }), { now: new Date(OLD) });
    await t.store.setStatus(id(1), 'resolved', { writer: 'w', now: new Date('2026-10-02T09:00:00Z') });
    const before = git(t.dir, ['rev-parse', 'capsules'], t.env);
    const result = await t.store.retire({ now: NOW, retention: RETENTION });
    expect(result).toMatchObject({ retired: [{ id: id(1), status: 'resolved' }], forgotten: 0 });
    expect(git(t.dir, ['rev-parse', `${result.commit}^`], t.env)).toBe(before);
    expect(git(t.dir, ['log', '-1', '--format=%s', 'capsules'], t.env)).toBe('retire: 1 capsule finished before 20261115');
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', 'capsules'], t.env).split('\n')).toEqual(['FORMAT', 'index/counts.json', retiredPath(id(1))]);
    expect(await t.store.listIndex()).toEqual([]);
    expect(await t.store.countByStatus()).toMatchObject({ resolved: 0 });
    expect(git(t.dir, ['show', `${before}:${capsuleDir(id(1))}/capsule.md`], t.env)).toContain(id(1));
    await expect(t.store.readCapsule(id(1))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await t.store.retire({ now: NOW, retention: RETENTION })).toMatchObject({ commit: null, retired: [] });
  });

  it('never touches an active or paused capsule however old, nor a finished one with a recent event', async () => {
    for (const n of [1, 2, 3]) await t.store.writeCapsule(capsuleText({ id: id(n), created_at: OLD }), { now: new Date(OLD) });
    await t.store.setStatus(id(2), 'paused', { writer: 'w', now: new Date(OLD) });
    await t.store.setStatus(id(3), 'resumed', { writer: 'w', now: new Date('2026-12-10T09:00:00Z') });
    expect(await t.store.retire({ now: NOW, retention: RETENTION })).toMatchObject({ commit: null, retired: [] });
    expect((await t.store.listIndex()).map((e) => e.id).sort()).toEqual([id(1), id(2), id(3)]);
  });

  it('checks what the index says against the documents and events before retiring anything', async () => {
    await t.store.writeCapsule(capsuleText({ id: id(1), created_at: OLD }), { now: new Date(OLD) });
    // An index that lies: the capsule filed as resolved while its document and events say active.
    const tip = git(t.dir, ['rev-parse', 'capsules'], t.env);
    const active = git(t.dir, ['ls-tree', '-r', '--name-only', 'capsules', 'index/active'], t.env);
    const line = git(t.dir, ['show', `capsules:${active}`], t.env);
    expect(active).toBe('index/active/2026-10-01/test_example.com');
    const { execFileSync } = await import('node:child_process');
    const stream = `commit refs/heads/capsules\ncommitter X <x@y> 1796000000 +0000\ndata 5\nforge\nfrom ${tip}\nD index/active\nM 100644 inline ${active.replace(/^index\/active\//, 'index/resolved/')}\ndata ${Buffer.byteLength(line) + 1}\n${line}\n\ndone\n`;
    execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: t.dir, env: t.env, input: stream });
    expect(await t.store.retire({ now: NOW, retention: RETENTION })).toMatchObject({ commit: null, retired: [] });
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', 'capsules', 'capsules'], t.env)).toContain(id(1));
  });

  it('refuses to write a retired capsule again, naming how to continue its work', async () => {
    await t.store.writeCapsule(capsuleText({ id: id(1), created_at: OLD }), { now: new Date(OLD) });
    await t.store.setStatus(id(1), 'abandoned', { writer: 'w', now: new Date(OLD) });
    await t.store.retire({ now: NOW, retention: RETENTION });
    await expect(t.store.writeCapsule(capsuleText({ id: id(1), created_at: OLD }), { now: NOW, replace: true })).rejects.toMatchObject({ code: 'CAPSULE_RETIRED', data: { id: id(1), path: retiredPath(id(1)) } });
  });

  it('forgets tombstones older than keepHistoryDays, in a forward commit', async () => {
    await t.store.writeCapsule(capsuleText({ id: id(1), created_at: OLD }), { now: new Date(OLD) });
    await t.store.setStatus(id(1), 'resolved', { writer: 'w', now: new Date(OLD) });
    await t.store.retire({ now: NOW, retention: RETENTION });
    expect(await t.store.retire({ now: new Date('2027-02-01T00:00:00Z'), retention: RETENTION })).toMatchObject({ commit: null });
    const later = await t.store.retire({ now: new Date('2027-03-20T00:00:00Z'), retention: RETENTION });
    expect(later).toMatchObject({ retired: [], forgotten: 1 });
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', 'capsules'], t.env)).not.toContain('retired/');
  });

  it('keeps every tombstone on a clone that never retires, so a capsule a teammate retired cannot merge back for good', async () => {
    await t.store.writeCapsule(capsuleText({ id: id(1), created_at: OLD }), { now: new Date(OLD) });
    await t.store.setStatus(id(1), 'resolved', { writer: 'w', now: new Date(OLD) });
    await t.store.retire({ now: NOW, retention: RETENTION });
    const never = { retireAfterDays: Number.POSITIVE_INFINITY, keepHistoryDays: 90 };
    expect(await t.store.retire({ now: new Date('2027-03-20T00:00:00Z'), retention: never })).toMatchObject({ commit: null, forgotten: 0 });
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', 'capsules'], t.env)).toContain(retiredPath(id(1)));
  });
});

describe('retentionFrom', () => {
  it.each([
    [{}, RETENTION_DEFAULTS],
    [{ 'capsule.retireafterdays': '7', 'capsule.keephistorydays': '365' }, { retireAfterDays: 7, keepHistoryDays: 365 }],
    [{ 'capsule.retireafterdays': 'never' }, { retireAfterDays: Number.POSITIVE_INFINITY, keepHistoryDays: 90 }],
    [{ 'capsule.retireafterdays': '0', 'capsule.keephistorydays': '0' }, { retireAfterDays: Number.POSITIVE_INFINITY, keepHistoryDays: 90 }],
    [{ 'capsule.retireafterdays': '-3', 'capsule.keephistorydays': 'soon' }, RETENTION_DEFAULTS],
  ])('reads %j', (values, expected) => {
    expect(retentionFrom(values)).toEqual(expected);
  });
});
