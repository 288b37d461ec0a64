import { execFileSync } from 'node:child_process';
import { openStore } from '../../lib/store/open-store';
import { cleanup, capsuleText, git, makeRepo, testId } from './support/temp-repo';

// The index keeps each day of each status as one shard per author (index/<status>/<day>/<author>),
// so a Stop rewrites only its own author's lines. The previous version kept a day as one blob
// (index/<status>/<day>, counts "format":3): such a tip reads as it is, and a write of that day
// splits it, losing nothing.

const NOW = new Date('2026-11-29T21:00:00Z');
const REF = 'refs/heads/capsules';

/** Writes `ids` as the author `email` (each capsule stamped with it), one commit each. */
async function writeAs(dir: string, env: NodeJS.ProcessEnv, email: string, docs: Array<Record<string, unknown>>): Promise<void> {
  const store = await openStore({ cwd: dir, env: { ...env, GIT_COMMITTER_EMAIL: email } });
  try {
    for (const fields of docs) await store.writeCapsule(capsuleText(fields), { now: NOW, replace: true });
  } finally {
    await store.close();
  }
}

/**
 * Rewrites the tip's index the way the previous version kept it: each day of each status one
 * blob (the author shards joined), counts of format 3. Plain git (fast-import), so the test does
 * not trust the code it tests.
 */
function asDayBlobs(dir: string, env: NodeJS.ProcessEnv): void {
  const days = new Map<string, string[]>();
  for (const path of git(dir, ['ls-tree', '-r', '--name-only', REF, 'index'], env).split('\n')) {
    const m = /^(index\/[a-z]+\/\d{4}-\d\d-\d\d)\/[^/]+$/.exec(path);
    if (m) days.set(m[1]!, [...(days.get(m[1]!) ?? []), ...git(dir, ['show', `${REF}:${path}`], env).split('\n').filter(Boolean)]);
  }
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const counts = git(dir, ['show', `${REF}:index/counts.json`], env).replace('"format":4', '"format":3');
  const files = [...days].map(([day, lines]) => `D ${day}\nM 100644 inline ${day}\n${data(`${lines.sort().join('\n')}\n`)}`).join('');
  const stream = `commit ${REF}\ncommitter X <x@example.com> 1796000000 +0000\n${data('previous version')}from ${git(dir, ['rev-parse', REF], env)}\n${files}M 100644 inline index/counts.json\n${data(`${counts}\n`)}\ndone\n`;
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: dir, env, input: stream });
}

describe('the index, one shard per author per day', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => ({ dir, env } = makeRepo()));
  afterEach(() => cleanup(dir));

  it('keeps each author\'s capsules of a day in that author\'s shard', async () => {
    await writeAs(dir, env, 'ann@example.com', [{ id: testId(1) }, { id: testId(2) }]);
    await writeAs(dir, env, 'bo@example.com', [{ id: testId(3) }]);
    expect(git(dir, ['ls-tree', '-r', '--name-only', REF, 'index/active'], env).split('\n')).toEqual(['index/active/2026-11-29/ann_example.com', 'index/active/2026-11-29/bo_example.com']);
    expect(git(dir, ['show', `${REF}:index/active/2026-11-29/bo_example.com`], env)).toContain(testId(3));
  });

  it('moves a capsule\'s line to its new author\'s shard when a replace names another author, leaving none behind', async () => {
    await writeAs(dir, env, 'ann@example.com', [{ id: testId(1), trigger: 'autosave' }]);
    await writeAs(dir, env, 'bo@example.com', [{ id: testId(1), trigger: 'autosave', objective: 'Carried on by Bo' }]);
    expect(git(dir, ['ls-tree', '-r', '--name-only', REF, 'index/active'], env)).toBe('index/active/2026-11-29/bo_example.com');
    const store = await openStore({ cwd: dir, env });
    try {
      expect((await store.listIndex()).map((e) => e.id)).toEqual([testId(1)]);
      expect(await store.rebuildIndex({ now: NOW })).toMatchObject({ changed: false });
    } finally {
      await store.close();
    }
  });

  it('reads a tip of the previous version (one blob per day) as it is, and splits a day by author on its next write, losing nothing', async () => {
    await writeAs(dir, env, 'ann@example.com', [{ id: testId(1) }, { id: testId(2), created_at: '2026-11-28T10:00:00Z' }]);
    await writeAs(dir, env, 'bo@example.com', [{ id: testId(3) }, { id: testId(4), status: 'resolved' }]);
    const store = await openStore({ cwd: dir, env });
    try {
      const listed = await store.listIndex();
      const counts = await store.countByStatus();
      asDayBlobs(dir, env);
      expect(git(dir, ['ls-tree', '--name-only', `${REF}:index/active`], env).split('\n')).toEqual(['2026-11-28', '2026-11-29']);
      expect(git(dir, ['cat-file', '-t', `${REF}:index/active/2026-11-29`], env)).toBe('blob');
      expect(await store.listIndex()).toEqual(listed);
      expect(await store.countByStatus()).toEqual(counts);
      expect((await store.listIndex({ status: ['active'], limit: 1 })).map((e) => e.id)).toEqual([listed.find((e) => e.status === 'active')!.id]);

      await store.setStatus(testId(3), 'paused', { writer: 'bo', now: NOW });
      // The day written is split by author; the day not written keeps its blob until it is.
      expect(git(dir, ['ls-tree', '-r', '--name-only', REF, 'index/active', 'index/paused'], env).split('\n')).toEqual(['index/active/2026-11-28', 'index/active/2026-11-29/ann_example.com', 'index/paused/2026-11-29/bo_example.com']);
      expect(JSON.parse(git(dir, ['show', `${REF}:index/counts.json`], env))).toMatchObject({ format: 4, counts: { active: 2, paused: 1, resolved: 1 } });
      expect((await store.listIndex()).map((e) => [e.id, e.status]).sort()).toEqual([[testId(1), 'active'], [testId(2), 'active'], [testId(3), 'paused'], [testId(4), 'resolved']]);
      // What is left of the blob days and what was split is exactly the index a rebuild gives, once rebuilt.
      expect(await store.rebuildIndex({ now: NOW })).toMatchObject({ changed: true, count: 4 });
      expect(git(dir, ['ls-tree', '-r', '--name-only', REF, 'index'], env).split('\n').filter((p) => p !== 'index/counts.json').every((p) => /^index\/[a-z]+\/\d{4}-\d\d-\d\d\/[^/]+$/.test(p))).toBe(true);
      expect((await store.listIndex()).map((e) => [e.id, e.status]).sort()).toEqual([[testId(1), 'active'], [testId(2), 'active'], [testId(3), 'paused'], [testId(4), 'resolved']]);
    } finally {
      await store.close();
    }
  });
});
