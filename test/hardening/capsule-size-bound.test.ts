import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { MAX_CAPSULE_BYTES } from '../../lib/capsule/limits';
import { runResume } from '../../lib/resume-runtime/run-resume';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';

const NOW = new Date('2026-11-29T22:00:00Z');

/** A valid capsule document padded past the size limit in its notes. */
function oversized(id: string): string {
  return capsuleDoc({ id }, {}, 'padding '.repeat(Math.ceil(MAX_CAPSULE_BYTES / 8) + 16));
}

let repo: TestRepo;
beforeEach(() => (repo = makeTestRepo()));
afterEach(() => repo.cleanup());

describe('the capsule size bound', () => {
  it('refuses a capsule over MAX_CAPSULE_BYTES at write, naming TOO_LARGE, and writes nothing', async () => {
    await repo.withStore(async (store) => {
      await expect(store.writeCapsule(oversized(ulid(1)), { now: NOW })).rejects.toMatchObject({
        code: 'CAPSULE_INVALID',
        data: { problems: [expect.objectContaining({ code: 'TOO_LARGE' })] },
      });
      expect(await store.exists()).toBe(false);
    });
  });

  it('rejects by name, at read, an oversized capsule another writer committed, and resumes the valid one', async () => {
    await repo.withStore(async (store) => {
      await store.writeCapsule(capsuleDoc({ id: ulid(1), created_at: '2026-11-29T19:00:00Z' }), { now: NOW });
      await store.writeCapsule(capsuleDoc({ id: ulid(2) }), { now: NOW });
    });
    // A foreign writer swaps the newest capsule's document for an oversized one, with plain git.
    const env = { ...repo.env, GIT_INDEX_FILE: join(repo.dir, '.git', 'forge-index') };
    const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: repo.dir, env, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
    const paths = git(['ls-tree', '-r', '--name-only', 'capsules']).split('\n');
    const target = git(['rev-parse', `capsules:${paths.find((p) => p.endsWith(`${ulid(2)}/capsule.md`))}`]);
    const big = git(['hash-object', '-w', '--stdin'], oversized(ulid(2)));
    git(['read-tree', 'capsules']);
    // Every tree entry that carries the document (the capsule path and its index entries) gets the big blob.
    for (const line of git(['ls-files', '-s']).split('\n')) {
      const [, oid] = line.split(/\s+/);
      if (oid === target) git(['update-index', '--cacheinfo', `100644,${big},${line.split('\t')[1]}`]);
    }
    const commit = git(['commit-tree', git(['write-tree']), '-p', 'capsules', '-m', 'foreign writer']);
    git(['update-ref', 'refs/heads/capsules', commit]);

    const r = await runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: false });
    expect(r.capsuleId).toBe(ulid(1));
    expect(r.text).toMatch(/1x unparseable \(too-large\)/);
    expect(r.text.length).toBeLessThanOrEqual(10_000);
  });
});
