import { openTempStore } from './support/open-temp-store';
import { capsuleText, testId } from './support/temp-repo';

const NOW = new Date('2026-11-29T21:00:00Z');

describe('readCapsule', () => {
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeAll(async () => {
    t = await openTempStore();
    await t.store.writeCapsule(capsuleText({ id: '01JDQ7AAAA0000000000000001' }), { now: NOW });
    await t.store.writeCapsule(capsuleText({ id: '01JDQ7AAAB0000000000000002', created_at: '2025-03-01T10:00:00-05:00' }), { now: NOW });
    await t.store.writeCapsule(capsuleText({ id: '01JDQ7BBBB0000000000000003' }), { now: NOW });
  });
  afterAll(() => t.done());

  it('reads a capsule by full id, with its document, path and status', async () => {
    const record = await t.store.readCapsule('01JDQ7AAAB0000000000000002');
    expect(record).toMatchObject({ id: '01JDQ7AAAB0000000000000002', path: 'capsules/2024-11-27/01JDQ7AAAB0000000000000002/capsule.md', status: 'active', events: [] });
    expect(record.text).toContain('created_at: 2025-03-01T10:00:00-05:00');
  });

  it('reads a capsule by an unambiguous prefix, in any case', async () => {
    expect((await t.store.readCapsule('01jdq7b')).id).toBe('01JDQ7BBBB0000000000000003');
  });

  it('throws AMBIGUOUS_ID with the candidates for a prefix matching several', async () => {
    await expect(t.store.readCapsule('01JDQ7AAA')).rejects.toMatchObject({ code: 'AMBIGUOUS_ID', data: { count: 2, candidates: ['01JDQ7AAAA0000000000000001', '01JDQ7AAAB0000000000000002'] } });
  });

  it.each(['01JDQ7C', 'not an id', '../etc'])('throws NOT_FOUND for %j', async (id) => {
    await expect(t.store.readCapsule(id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('readTexts', () => {
  it('reads many documents at once and leaves unknown ids out', async () => {
    const t = await openTempStore();
    try {
      await t.store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
      await t.store.writeCapsule(capsuleText({ id: testId(2), objective: 'second' }), { now: NOW });
      const texts = await t.store.readTexts([testId(2), testId(1), testId(3)]);
      expect([...texts.keys()].sort()).toEqual([testId(1), testId(2)]);
      expect(texts.get(testId(2))).toContain('objective: second');
    } finally {
      await t.done();
    }
  });
});

describe('readTexts by ULID month', () => {
  it('reads a capsule whose ULID names its month without scanning the month folders', async () => {
    const { newCapsuleId } = await import('../../lib/capsule/id');
    const { CatFileBatch } = await import('../../lib/git/cat-file-batch');
    const { createGitRunner } = await import('../../lib/git/git-runner');
    const { MemoryTree } = await import('../../lib/store/memory-tree');
    const { readTexts: readTextsOf } = await import('../../lib/store/read-capsule');
    const t = await openTempStore();
    const batch = new CatFileBatch(createGitRunner({ cwd: t.dir, env: t.env }));
    try {
      const ids: string[] = [];
      for (let m = 1; m <= 6; m += 1) {
        const at = new Date(`2026-0${m}-15T12:00:00Z`);
        const id = newCapsuleId(at);
        ids.push(id);
        await t.store.writeCapsule(capsuleText({ id, created_at: at.toISOString() }), { now: NOW });
      }
      const names: string[] = [];
      const read = batch.read.bind(batch);
      batch.read = (name: string, opts?: Parameters<typeof read>[1]) => (names.push(name), read(name, opts));
      const texts = await readTextsOf(new MemoryTree(batch, 'refs/heads/capsules'), [ids[5]!, ids[0]!]);
      expect([...texts.keys()]).toEqual([ids[5], ids[0]]);
      expect(names.filter((n) => !n.endsWith('capsule.md') && !n.endsWith('FORMAT') && n !== 'refs/heads/capsules')).toEqual([]);
    } finally {
      await batch.close();
      await t.done();
    }
  });
});

describe('reading a document another machine made too large', () => {
  it('holds at most one byte past MAX_CAPSULE_BYTES of it, enough for the parser to name it TOO_LARGE', async () => {
    const { execFileSync } = await import('node:child_process');
    const { MAX_CAPSULE_BYTES } = await import('../../lib/capsule/limits');
    const { parseCapsule } = await import('../../lib/capsule/parse');
    const t = await openTempStore();
    try {
      const id = '01JDQ7CCCC0000000000000004';
      await t.store.writeCapsule(capsuleText({ id }), { now: NOW });
      const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: t.dir, env: { ...t.env, GIT_INDEX_FILE: `${t.dir}/.git/forge-index` }, input, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
      const tip = git(['rev-parse', 'refs/heads/capsules']);
      const path = git(['ls-tree', '-r', '--name-only', tip]).split('\n').find((p) => p.includes(id) && p.endsWith('capsule.md'))!;
      git(['read-tree', tip]);
      git(['update-index', '--cacheinfo', `100644,${git(['hash-object', '-w', '--stdin'], `---\nid: ${id}\nobjective: "${'A'.repeat(8 * 1024 * 1024)}"\n---\n`)},${path}`]);
      git(['update-ref', 'refs/heads/capsules', git(['commit-tree', git(['write-tree']), '-p', tip, '-m', 'forged']), tip]);
      const text = (await t.store.readCapsule(id)).text;
      expect(text.length).toBe(MAX_CAPSULE_BYTES + 1);
      expect(parseCapsule(text).problems.map((p) => p.code)).toContain('TOO_LARGE');
    } finally {
      await t.done();
    }
  });
});
