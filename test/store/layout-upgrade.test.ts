import { execFileSync } from 'node:child_process';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { createGitRunner } from '../../lib/git/git-runner';
import { countByStatus, listIndex } from '../../lib/store/list-index';
import { collectEntries } from '../../lib/store/collect-entries';
import { planLayoutUpgrade } from '../../lib/store/layout-upgrade';
import { capsuleDir, FORMAT_TEXT, FORMAT_TEXT_V2, retiredPath } from '../../lib/store/memory-format';
import { MemoryTree } from '../../lib/store/memory-tree';
import type { IndexEntry } from '../../lib/store/types';
import { openStore } from '../../lib/store/open-store';
import { layout2Path, rewriteAsLayout2 } from '../support/layout2-memory';
import { loadLegacyMemory, memoryContent } from '../support/legacy-memory';
import { openTempStore } from './support/open-temp-store';
import { capsuleText, git } from './support/temp-repo';

const NOW = new Date('2026-12-01T10:00:00Z');
const REF = 'refs/heads/capsules';

/** Every capsule folder of a tree, by plain git. */
function folders(dir: string, env: NodeJS.ProcessEnv, rev = REF): string[] {
  const paths = git(dir, ['ls-tree', '-r', '--name-only', rev, '--', 'capsules'], env).split('\n');
  return [...new Set(paths.map((p) => p.replace(/\/(capsule\.md|status\/.*)$/, '')))].sort();
}

/** A reader of `t`'s memory branch that records the name of every object it is asked for. */
function recordingTree(t: { dir: string; env: NodeJS.ProcessEnv }): { tree: MemoryTree; names: string[]; close: () => Promise<void> } {
  const batch = new CatFileBatch(createGitRunner({ cwd: t.dir, env: t.env }));
  const names: string[] = [];
  const read = batch.read.bind(batch);
  batch.read = (name: string) => (names.push(name), read(name));
  return { tree: new MemoryTree(batch, REF), names, close: () => batch.close() };
}

/** The upgrade of `t`'s branch is planned from tree reads and its old index alone (no document read), to the entries a rebuild from the documents gives. */
async function expectPlanWithoutDocuments(t: { dir: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const { tree, names, close } = recordingTree(t);
  try {
    const tip = (await tree.tip())!;
    const plan = (await planLayoutUpgrade(tree, tip))!;
    expect(names.filter((n) => n.endsWith('capsule.md'))).toEqual([]);
    const rebuilt = await collectEntries(tree, tip, { inPlace: true });
    const byId = (es: IndexEntry[]) => Object.fromEntries(es.map((e) => [e.id, e]));
    expect(byId(plan.entries)).toEqual(byId(rebuilt));
    expect(plan.entries.every((e) => e.path === `${capsuleDir(e.id)}/capsule.md`)).toBe(true);
  } finally {
    await close();
  }
}

describe('a memory branch of layout 1', () => {
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeEach(async () => {
    t = await openTempStore();
    loadLegacyMemory(t.dir, t.env, 'capsules-a');
  });
  afterEach(() => t.done());

  it('reads as it is: every capsule is listed with its status and found by id, before anything is written', async () => {
    const before = memoryContent(t.dir, t.env, REF);
    const listed = await t.store.listIndex();
    expect(listed.map((e) => e.id).sort()).toEqual([...before.keys()].sort());
    expect(Object.fromEntries(listed.map((e) => [e.id, e.status]))).toMatchObject({ '01M5CMMFA00000000000000035': 'resolved', '01M6DMBE000000000000000036': 'abandoned', '01M7H9WZA00000000000000037': 'resumed' });
    const record = await t.store.readCapsule('01M8KJT9G00000000000000039');
    expect(record).toMatchObject({ path: 'capsules/2026/11/01M8KJT9G00000000000000039/capsule.md', status: 'active' });
    expect(record.text).toContain('Legacy autosave turn 4');
    expect((await t.store.readTexts(['01M40FVQM00000000000000034'])).get('01M40FVQM00000000000000034')).toContain('Legacy objective 0034');
  });

  it('moves to layout 3 in the same commit as the next write, losing no document and no status event', async () => {
    const before = memoryContent(t.dir, t.env, REF);
    const oldTip = git(t.dir, ['rev-parse', REF], t.env);
    const fresh = capsuleText({ id: '01M8Z00000000000000000000A', created_at: '2026-12-01T09:00:00Z' });
    await t.store.writeCapsule(fresh, { now: NOW });
    expect(git(t.dir, ['rev-parse', `${REF}^`], t.env)).toBe(oldTip);
    const after = memoryContent(t.dir, t.env, REF);
    expect(Object.fromEntries([...after].filter(([id]) => before.has(id)))).toEqual(Object.fromEntries(before));
    expect(folders(t.dir, t.env)).toEqual([...after.keys()].map(capsuleDir).sort());
    expect(git(t.dir, ['show', `${REF}:FORMAT`], t.env)).toBe(FORMAT_TEXT.trim());
    expect(await t.store.rebuildIndex({ now: NOW })).toMatchObject({ changed: false, count: before.size + 1 });
    expect((await t.store.listIndex({ status: ['resumed'] })).map((e) => e.id).sort()).toEqual(['01M40FVQM00000000000000034', '01M7H9WZA00000000000000037']);
  });

  it('plans the move from tree reads and the old index alone, to the entries a rebuild from the documents gives', async () => {
    await expectPlanWithoutDocuments(t);
  });

  it('moves to layout 3 with a status event, which lands beside the moved capsule', async () => {
    await t.store.setStatus('01M8GSHV800000000000000038', 'paused', { writer: 'new', now: NOW });
    expect(folders(t.dir, t.env)).toContain(capsuleDir('01M8GSHV800000000000000038'));
    expect(git(t.dir, ['ls-tree', '--name-only', `${REF}:${capsuleDir('01M8GSHV800000000000000038')}/status`], t.env)).toMatch(/-new-paused$/);
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', REF, '--', 'index'], t.env)).not.toMatch(/^index\/[a-z]+\/\d{4}\/\d\d$/m);
  });

  it('moves to layout 3 on an explicit reindex, in one commit named for it', async () => {
    const before = memoryContent(t.dir, t.env, REF);
    expect(await t.store.rebuildIndex({ now: NOW })).toMatchObject({ changed: true, count: before.size });
    expect(git(t.dir, ['log', '-1', '--format=%s', REF], t.env)).toBe(`migrate: layout 1 -> 3, ${before.size} capsules`);
    expect(memoryContent(t.dir, t.env, REF)).toEqual(before);
    expect(await t.store.rebuildIndex({ now: NOW })).toMatchObject({ changed: false });
  });

  it('keeps the copy already in place of an id found twice, with the status events of both', async () => {
    await t.store.rebuildIndex({ now: NOW });
    // An older git-capsule writing into the migrated branch puts the capsule back under its month.
    const id = '01M8GSHV800000000000000038';
    const old = `capsules/2026/11/${id}`;
    const format1 = git(t.dir, ['show', `${REF}~2:FORMAT`], t.env);
    importOnto(t.dir, t.env, [`M 100644 inline ${old}/capsule.md`, 'old copy', `M 100644 inline ${old}/status/20261201T000000000Z-old-resolved`, 'x', 'M 100644 inline FORMAT', format1]);
    await t.store.setStatus('01M8NQFJ000000000000000068', 'paused', { writer: 'new', now: NOW });
    expect(folders(t.dir, t.env).filter((f) => f.endsWith(id))).toEqual([capsuleDir(id)]);
    const record = await t.store.readCapsule(id);
    expect(record.text).toContain('Legacy objective 0038');
    expect(record.status).toBe('resolved');
    expect((await t.store.listIndex({ status: ['resolved'] })).map((e) => e.id)).toContain(id);
    expect(await t.store.rebuildIndex({ now: NOW })).toMatchObject({ changed: false });
  });
});

describe('a memory branch of layout 2', () => {
  // Three UTC days apart, so the day folders differ; the fourth is retired (only its tombstone is left).
  const IDS = ['01JDQ7000000000000000000A1', '01M5CMMFA00000000000000035', '01M8KJT9G00000000000000039'];
  const GONE = '01M7H9WZA00000000000000037';
  let t: Awaited<ReturnType<typeof openTempStore>>;
  beforeEach(async () => {
    t = await openTempStore();
    for (const [i, id] of IDS.entries()) await t.store.writeCapsule(capsuleText({ id, objective: `Layout 2 objective ${i}`, created_at: `2026-11-2${i}T10:00:00Z` }), { now: NOW });
    await t.store.setStatus(IDS[1]!, 'resolved', { writer: 'old', now: NOW });
    importOnto(t.dir, t.env, [`M 100644 inline ${retiredPath(GONE)}`, 'retired: 2026-11-30\n']);
    rewriteAsLayout2(t.dir, t.env, REF);
  });
  afterEach(() => t.done());

  it('is written the way the previous version wrote it (the fixture this suite migrates)', () => {
    expect(git(t.dir, ['show', `${REF}:FORMAT`], t.env)).toBe(FORMAT_TEXT_V2.trim());
    expect(folders(t.dir, t.env)).toEqual(IDS.map((id) => layout2Path(`${capsuleDir(id)}/`).slice(0, -1)).sort());
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', REF, '--', 'retired', 'index/resolved'], t.env).split('\n')).toEqual(['index/resolved/2026/11/21', layout2Path(retiredPath(GONE))]);
  });

  it('reads as it is: every capsule is listed with its status and found by id, before anything is written', async () => {
    const listed = await t.store.listIndex();
    expect(Object.fromEntries(listed.map((e) => [e.id, e.status]))).toEqual({ [IDS[0]!]: 'active', [IDS[1]!]: 'resolved', [IDS[2]!]: 'active' });
    const record = await t.store.readCapsule(IDS[2]!);
    expect(record).toMatchObject({ path: `${layout2Path(`${capsuleDir(IDS[2]!)}/`)}capsule.md`, status: 'active' });
    expect((await t.store.readTexts([IDS[0]!])).get(IDS[0]!)).toContain('Layout 2 objective 0');
  });

  it('lists and counts from its own index, reading no document (a resume on 10,000 capsules read them all and ran out of time)', async () => {
    const { tree, names, close } = recordingTree(t);
    try {
      const listed = await listIndex(tree);
      expect(Object.fromEntries(listed.map((e) => [e.id, e.status]))).toEqual({ [IDS[0]!]: 'active', [IDS[1]!]: 'resolved', [IDS[2]!]: 'active' });
      expect(await countByStatus(tree)).toMatchObject({ active: 2, resolved: 1 });
      expect(names.filter((n) => n.endsWith('capsule.md'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('refuses to write a capsule again whose tombstone is still where layout 2 put it', async () => {
    await expect(t.store.writeCapsule(capsuleText({ id: GONE }), { now: NOW })).rejects.toMatchObject({ code: 'CAPSULE_RETIRED' });
  });

  it('moves to layout 3 in the same commit as the next write, losing no document, status event or tombstone', async () => {
    const before = memoryContent(t.dir, t.env, REF);
    const oldTip = git(t.dir, ['rev-parse', REF], t.env);
    const history = git(t.dir, ['rev-list', REF], t.env);
    const fresh = capsuleText({ id: '01M8Z00000000000000000000A', created_at: '2026-12-01T09:00:00Z' });
    await t.store.writeCapsule(fresh, { now: NOW });
    expect(git(t.dir, ['rev-parse', `${REF}^`], t.env)).toBe(oldTip);
    expect(git(t.dir, ['rev-list', `${REF}^`], t.env)).toBe(history);
    const after = memoryContent(t.dir, t.env, REF);
    expect(Object.fromEntries([...after].filter(([id]) => before.has(id)))).toEqual(Object.fromEntries(before));
    expect(folders(t.dir, t.env)).toEqual([...after.keys()].map(capsuleDir).sort());
    expect(git(t.dir, ['show', `${REF}:FORMAT`], t.env)).toBe(FORMAT_TEXT.trim());
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', REF, '--', 'retired'], t.env)).toBe(retiredPath(GONE));
    expect(git(t.dir, ['ls-tree', '-r', '--name-only', REF, '--', 'index'], t.env).split('\n').filter((p) => p !== 'index/counts.json').every((p) => /^index\/[a-z]+\/\d{4}-\d\d-\d\d\/[^/]+$/.test(p))).toBe(true);
    expect(await t.store.rebuildIndex({ now: NOW })).toMatchObject({ changed: false, count: before.size + 1 });
    expect((await t.store.listIndex({ status: ['resolved'] })).map((e) => e.id)).toEqual([IDS[1]]);
    await expect(t.store.writeCapsule(capsuleText({ id: GONE }), { now: NOW })).rejects.toMatchObject({ code: 'CAPSULE_RETIRED' });
  });

  it('moves to layout 3 on an explicit reindex, in one commit named for it', async () => {
    const before = memoryContent(t.dir, t.env, REF);
    expect(await t.store.rebuildIndex({ now: NOW })).toMatchObject({ changed: true, count: before.size });
    expect(git(t.dir, ['log', '-1', '--format=%s', REF], t.env)).toBe(`migrate: layout 2 -> 3, ${before.size} capsules`);
    expect(memoryContent(t.dir, t.env, REF)).toEqual(before);
    expect(await t.store.rebuildIndex({ now: NOW })).toMatchObject({ changed: false });
  });

  it('plans the move from tree reads and the old index alone, to the entries a rebuild from the documents gives', async () => {
    await expectPlanWithoutDocuments(t);
  });
});

describe('a memory branch of a newer layout', () => {
  it('is refused by writes with MEMORY_FORMAT_NEWER, and nothing is written', async () => {
    const t = await openTempStore();
    try {
      await t.store.writeCapsule(capsuleText(), { now: NOW });
      importOnto(t.dir, t.env, ['M 100644 inline FORMAT', FORMAT_TEXT.replace('format: 3', 'format: 4')]);
      const tip = git(t.dir, ['rev-parse', REF], t.env);
      const store = await openStore({ cwd: t.dir, env: t.env });
      try {
        await expect(store.writeCapsule(capsuleText({ id: '01JDQ7000000000000000000AC' }), { now: NOW })).rejects.toMatchObject({ code: 'MEMORY_FORMAT_NEWER', data: { version: 4, known: 3 } });
        await expect(store.setStatus('01JDQ7000000000000000000AB', 'paused', { writer: 'w', now: NOW })).rejects.toMatchObject({ code: 'MEMORY_FORMAT_NEWER' });
        await expect(store.rebuildIndex({ now: NOW })).rejects.toMatchObject({ code: 'MEMORY_FORMAT_NEWER' });
      } finally {
        await store.close();
      }
      expect(git(t.dir, ['rev-parse', REF], t.env)).toBe(tip);
    } finally {
      await t.done();
    }
  });
});

/** One commit on the memory ref by plain fast-import: `lines` alternate a command and, after each inline M, its data. */
function importOnto(dir: string, env: NodeJS.ProcessEnv, lines: string[]): void {
  const tip = git(dir, ['rev-parse', REF], env);
  const body: string[] = [];
  for (let i = 0; i < lines.length; i += 2) body.push(`${lines[i]}\ndata ${Buffer.byteLength(lines[i + 1]!)}\n${lines[i + 1]}\n`);
  const stream = `commit ${REF}\ncommitter Old <old@example.com> 1796100000 +0000\ndata 4\nold\nfrom ${tip}\n${body.join('')}\ndone\n`;
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: dir, env, input: stream });
}
