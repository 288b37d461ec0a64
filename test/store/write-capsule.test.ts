import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newCapsuleId } from '../../lib/capsule/id';
import { capsulePath } from '../../lib/store/memory-format';
import { openStore } from '../../lib/store/open-store';
import { openTempStore } from './support/open-temp-store';
import { capsuleText, git, testId } from './support/temp-repo';
import { identityStamp, withoutIdentity } from '../support/capsule-doc';

const NOW = new Date('2026-11-29T21:00:00Z');
const STAMP = identityStamp('test@example.com');

describe('writeCapsule', () => {
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeEach(async () => (t = await openTempStore()));
  afterEach(() => t.done());

  it('commits the document under the UTC day of the time its id carries, and indexes it under the UTC day of created_at', async () => {
    // 00:30 on 1 December at +01:00 is still 30 November in UTC.
    const at = new Date('2026-12-01T00:30:00+01:00');
    const id = newCapsuleId(at, (n) => Buffer.alloc(n, 7));
    const text = capsuleText({ id, created_at: '2026-12-01T00:30:00+01:00' });
    const result = await t.store.writeCapsule(text, { now: NOW });
    expect(result).toMatchObject({ id, path: `capsules/2026-11-30/${id}/capsule.md`, changed: true });
    const stored = git(t.dir, ['show', `capsules:${result.path}`], t.env);
    expect(withoutIdentity(stored)).toBe(text.trim());
    expect(stored).toMatch(STAMP);
    expect(git(t.dir, ['rev-parse', 'capsules'], t.env)).toBe(result.commit);
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', 'capsules', 'index/active'], t.env)).toBe('index/active/2026-11-30/test_example.com');
    expect(git(t.dir, ['show', 'capsules:FORMAT'], t.env)).toContain('format: 3');
  });

  it('stamps who and where wrote it last in the frontmatter, replacing what the text claimed', async () => {
    const text = capsuleText({ id: testId(1), author: 'mallory@example.com', machine: 'm-forged' });
    const result = await t.store.writeCapsule(text, { now: NOW });
    const stored = git(t.dir, ['show', `capsules:${result.path}`], t.env);
    expect(stored).toMatch(STAMP);
    expect(stored).not.toContain('mallory');
    expect(stored).not.toContain('m-forged');
  });

  it('rewrites an autosave stamped the same way without a new commit', async () => {
    const text = capsuleText({ id: testId(1), trigger: 'autosave' });
    const first = await t.store.writeCapsule(text, { now: NOW, replace: true });
    const again = await t.store.writeCapsule(text, { now: NOW, replace: true });
    expect(first.changed).toBe(true);
    expect(again).toMatchObject({ changed: false, commit: null });
  });

  it('runs whileCommitting once while git makes the commit (the tip not moved yet), and not for a write that commits nothing', async () => {
    const text = capsuleText({ id: testId(1), trigger: 'autosave' });
    await t.store.writeCapsule(text, { now: NOW, replace: true });
    const refFile = join(t.dir, '.git', 'refs', 'heads', 'capsules');
    const before = readFileSync(refFile, 'utf8').trim();
    const seen: string[] = [];
    const changed = await t.store.writeCapsule(capsuleText({ id: testId(1), trigger: 'autosave', objective: 'Updated objective' }), {
      now: NOW,
      replace: true,
      whileCommitting: () => seen.push(readFileSync(refFile, 'utf8').trim()),
    });
    expect(seen).toEqual([before]);
    expect(changed.commit).not.toBe(before);
    const same = await t.store.writeCapsule(capsuleText({ id: testId(1), trigger: 'autosave', objective: 'Updated objective' }), { now: NOW, replace: true, whileCommitting: () => seen.push('again') });
    expect(same.changed).toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('writes one commit whose subject names the operation and whose trailers carry the selection data', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1), session_id: 'sess-1', trigger: 'autosave' }), { now: NOW, op: 'autosave' });
    expect(git(t.dir, ['rev-list', '--count', 'capsules'], t.env)).toBe('2');
    expect(git(t.dir, ['log', '-1', '--format=%s', 'capsules'], t.env)).toBe(`autosave ${testId(1)}: Make the store write capsules`);
    expect(git(t.dir, ['log', '-1', '--format=%(trailers:only,unfold)', 'capsules'], t.env).split('\n')).toEqual([
      `Capsule-Id: ${testId(1)}`, 'Capsule-Op: autosave', 'Capsule-Status: active', 'Capsule-Created-At: 2026-11-29T20:00:00Z', 'Capsule-Session: sess-1', 'Capsule-Trigger: autosave',
    ]);
  });

  it('refuses an invalid capsule with its problems and writes nothing', async () => {
    const text = capsuleText({ id: testId(1), waiting_on: null, created_at: '2026-11-29' });
    await expect(t.store.writeCapsule(text, { now: NOW })).rejects.toMatchObject({
      code: 'CAPSULE_INVALID',
      data: { problems: expect.arrayContaining([expect.objectContaining({ code: 'WAITING_ON_NULL' }), expect.objectContaining({ code: 'CREATED_AT_DATE_ONLY' })]) },
    });
    expect(await t.store.exists()).toBe(false);
  });

  it('leaves no objects, pack or fast-import crash report behind when it refuses', async () => {
    await expect(t.store.writeCapsule(capsuleText({ objective: '' }), { now: NOW })).rejects.toMatchObject({ code: 'CAPSULE_INVALID' });
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    const before = git(t.dir, ['count-objects', '-v'], t.env);
    await expect(t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW })).rejects.toMatchObject({ code: 'CAPSULE_EXISTS' });
    expect(git(t.dir, ['count-objects', '-v'], t.env)).toBe(before);
    expect(readdirSync(join(t.dir, '.git')).filter((f) => f.startsWith('fast_import_crash'))).toEqual([]);
  });

  it('keeps the pack each write leaves instead of unpacking it into loose objects (no unpack-objects fork)', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    const packs = () => readdirSync(join(t.dir, '.git', 'objects', 'pack')).filter((f) => f.endsWith('.pack')).length;
    const loose = () => Number(/^count: (\d+)/m.exec(git(t.dir, ['count-objects', '-v'], t.env))![1]);
    const [packsBefore, looseBefore] = [packs(), loose()];
    await t.store.writeCapsule(capsuleText({ id: testId(2) }), { now: NOW });
    await t.store.setStatus(testId(2), 'resolved', { writer: 'test', now: NOW });
    expect(packs()).toBe(packsBefore + 2);
    expect(loose()).toBe(looseBefore);
    expect(git(t.dir, ['fsck', '--no-dangling'], t.env)).toBe('');
  });

  it('in a partial clone (a promisor pack present) unpacks each write as git does, leaving pack housekeeping to git', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    const packDir = join(t.dir, '.git', 'objects', 'pack');
    const pack = readdirSync(packDir).find((f) => f.endsWith('.pack'))!;
    writeFileSync(join(packDir, pack.replace(/\.pack$/, '.promisor')), '');
    const reopened = await openStore({ cwd: t.dir, env: t.env });
    try {
      const packsBefore = readdirSync(packDir).filter((f) => f.endsWith('.pack')).length;
      await reopened.writeCapsule(capsuleText({ id: testId(2) }), { now: NOW });
      expect(readdirSync(packDir).filter((f) => f.endsWith('.pack')).length).toBe(packsBefore);
      expect(Number(/^count: (\d+)/m.exec(git(t.dir, ['count-objects', '-v'], t.env))![1])).toBeGreaterThan(0);
    } finally {
      await reopened.close();
    }
  });

  it('refuses text with no frontmatter', async () => {
    await expect(t.store.writeCapsule('just prose\n', { now: NOW })).rejects.toMatchObject({ code: 'CAPSULE_INVALID' });
    expect(await t.store.exists()).toBe(false);
  });

  it('refuses a second capsule with the same id unless replacing', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    await expect(t.store.writeCapsule(capsuleText({ id: testId(1), objective: 'other' }), { now: NOW })).rejects.toMatchObject({ code: 'CAPSULE_EXISTS', data: { id: testId(1) } });
  });

  it('rewrites a capsule in place with replace and commits nothing when the bytes are unchanged', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW, replace: true });
    const changed = await t.store.writeCapsule(capsuleText({ id: testId(1), objective: 'Updated objective' }), { now: NOW, replace: true });
    expect(changed.changed).toBe(true);
    expect(git(t.dir, ['log', '-1', '--format=%s', 'capsules'], t.env)).toBe(`replace ${testId(1)}: Updated objective`);
    const tip = git(t.dir, ['rev-parse', 'capsules'], t.env);
    const same = await t.store.writeCapsule(capsuleText({ id: testId(1), objective: 'Updated objective' }), { now: NOW, replace: true });
    expect(same).toMatchObject({ changed: false, commit: null });
    expect(git(t.dir, ['rev-parse', 'capsules'], t.env)).toBe(tip);
    expect((await t.store.listIndex()).map((e) => e.objective)).toEqual(['Updated objective']);
  });

  it('rebuilds the whole index in the same commit when the tip lost it (a commit by plain git), whether replacing or writing anew', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW, replace: true });
    await t.store.writeCapsule(capsuleText({ id: testId(2) }), { now: NOW });
    const env = { ...t.env, GIT_INDEX_FILE: join(t.dir, '.git', 'no-index-test') };
    const dropIndex = () => {
      git(t.dir, ['read-tree', 'capsules'], env);
      git(t.dir, ['rm', '--cached', '-r', '-q', 'index'], env);
      git(t.dir, ['update-ref', 'refs/heads/capsules', git(t.dir, ['commit-tree', git(t.dir, ['write-tree'], env), '-p', 'capsules', '-m', 'plain'], env)], env);
    };
    const counts = () => JSON.parse(git(t.dir, ['show', 'capsules:index/counts.json'], t.env)).counts.active;
    dropIndex();
    await t.store.writeCapsule(capsuleText({ id: testId(1), objective: 'Updated objective' }), { now: NOW, replace: true });
    expect(counts()).toBe(2);
    dropIndex();
    await t.store.writeCapsule(capsuleText({ id: testId(3) }), { now: NOW });
    expect(counts()).toBe(3);
    expect((await t.store.listIndex()).map((e) => e.id).sort()).toEqual([testId(1), testId(2), testId(3)]);
  });

  it('indexes the autosave tag, so the orientation can name the writer without reading the document', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1), tags: ['autosave'] }), { now: NOW });
    await t.store.writeCapsule(capsuleText({ id: testId(2), tags: ['other'] }), { now: NOW });
    const entries = await t.store.listIndex();
    expect(entries.find((e) => e.id === testId(1))).toMatchObject({ autosaveTag: true });
    expect(entries.find((e) => e.id === testId(2))).not.toHaveProperty('autosaveTag');
  });

  it('keeps a capsule\'s later status when its document is replaced', async () => {
    await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    await t.store.setStatus(testId(1), 'paused', { writer: 'w', now: NOW });
    await t.store.writeCapsule(capsuleText({ id: testId(1), objective: 'again' }), { now: NOW, replace: true });
    expect(await t.store.listIndex()).toEqual([expect.objectContaining({ id: testId(1), status: 'paused', objective: 'again' })]);
    expect(await t.store.countByStatus()).toMatchObject({ active: 0, paused: 1 });
  });
});

describe('writeCapsule with replace', () => {
  it('refuses a document whose created_at changed, instead of filing the id under two days', async () => {
    const t = await openTempStore();
    try {
      await t.store.writeCapsule(capsuleText({ id: testId(1), created_at: '2026-10-05T10:00:00Z' }), { now: NOW, replace: true });
      await expect(t.store.writeCapsule(capsuleText({ id: testId(1), created_at: '2026-11-05T10:00:00Z' }), { now: NOW, replace: true })).rejects.toMatchObject({
        code: 'CREATED_AT_CHANGED',
        data: { id: testId(1), path: capsulePath(testId(1)), was: '2026-10-05T10:00:00Z', given: '2026-11-05T10:00:00.000Z' },
      });
      // The same instant written with another offset is the same created_at.
      await t.store.writeCapsule(capsuleText({ id: testId(1), created_at: '2026-10-05T12:00:00+02:00', objective: 'same instant' }), { now: NOW, replace: true });
      expect((await t.store.listIndex()).length).toBe(1);
    } finally {
      await t.done();
    }
  });
});
