import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { STATE_FILES, statePath } from '../../lib/local-state/state-files';
import { runDoctorChecks } from '../../lib/cli/doctor-checks';
import { runResume } from '../../lib/resume-runtime/run-resume';
import { capsuleDir, DEFAULT_MEMORY_REF } from '../../lib/store/memory-format';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { makeTestRepo, type TestRepo } from './repo';

const NOW = new Date('2026-11-29T22:00:00Z');

/** Adds capsule documents to the branch with plain git, as a hand-made commit or an older version would: no index update. */
function commitByHand(repo: TestRepo, ids: string[], dirOf: (id: string) => string = capsuleDir): void {
  const parts = [`commit ${DEFAULT_MEMORY_REF}\ncommitter Hand <hand@example.com> 1796000000 +0000\ndata 5\nhand\nfrom ${DEFAULT_MEMORY_REF}^0\n`];
  for (const id of ids) {
    const doc = capsuleDoc({ id, created_at: '2026-11-29T21:59:00Z' });
    parts.push(`M 100644 inline ${dirOf(id)}/capsule.md\ndata ${Buffer.byteLength(doc)}\n${doc}\n`);
  }
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: repo.dir, env: repo.env, input: `${parts.join('')}done\n` });
}

describe('capsules in the tree that the index does not list', () => {
  let repo: TestRepo;
  beforeEach(async () => {
    repo = makeTestRepo();
    await repo.withStore((s) => s.writeCapsule(capsuleDoc({ id: ulid(1), created_at: '2026-11-29T21:00:00Z' }), { now: NOW }));
  });
  afterEach(() => repo.cleanup());

  it('are named in the ledger with a count and what to run', async () => {
    commitByHand(repo, [ulid(2), ulid(3)]);
    const r = await runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: false });
    expect(r.capsuleId).toBe(ulid(1));
    expect(r.text).toContain('2x not-indexed (in the tree but not in the index: run git capsule reindex)');
  });

  it('keeps the per-month counts it remembers private to the user (0600), like all runtime state', async () => {
    commitByHand(repo, [ulid(2)]);
    await runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: false });
    expect(statSync(statePath(repo.stateDir, STATE_FILES.capsuleCounts)).mode & 0o777).toBe(0o600);
  });

  it('are counted in the folders of older layouts too (format 2 days, format 1 months)', async () => {
    commitByHand(repo, [ulid(2)], (id) => `capsules/2026/11/29/${id}`);
    commitByHand(repo, [ulid(3)], (id) => `capsules/2026/11/${id}`);
    const r = await runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: false });
    expect(r.text).toContain('2x not-indexed');
  });

  it('are counted again after the branch moves, reading only the changed day', async () => {
    commitByHand(repo, [ulid(2)]);
    await runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: false });
    commitByHand(repo, [ulid(3)]);
    const r = await runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: false });
    expect(r.text).toContain('2x not-indexed');
  });

  it('say nothing once reindex has listed them', async () => {
    commitByHand(repo, [ulid(2)]);
    await repo.withStore((s) => s.rebuildIndex({ now: NOW }));
    const r = await runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: false });
    expect(r.text).not.toContain('not-indexed');
  });

  it('are seen one by one when the branch has no index at all', async () => {
    const empty = makeTestRepo();
    try {
      await empty.withStore((s) => s.init());
      commitByHand(empty, [ulid(4)]);
      const r = await runResume({ cwd: empty.dir, env: empty.env, now: NOW, sessionId: 'session-B', consume: false });
      expect(r.unavailable).toBe('all-candidates-rejected');
      expect(r.text).toContain(`id "${ulid(4)}"`);
      expect(r.text).not.toContain('not-indexed');
    } finally {
      empty.cleanup();
    }
  });

  it('are reported by doctor', async () => {
    commitByHand(repo, [ulid(2)]);
    const checks = await runDoctorChecks(repo.dir, repo.env, NOW);
    expect(checks.find((c) => c.name === 'index')).toMatchObject({ status: 'warn', fix: 'run `git capsule reindex`' });
    await repo.withStore((s) => s.rebuildIndex({ now: NOW }));
    expect((await runDoctorChecks(repo.dir, repo.env, NOW)).find((c) => c.name === 'index')).toMatchObject({ status: 'ok' });
  });
});
