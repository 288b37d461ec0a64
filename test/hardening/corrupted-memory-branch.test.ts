import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runResume } from '../../lib/resume-runtime/run-resume';
import { PROCEDURE_BEGIN } from '../../lib/resume/procedure';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';

const NOW = new Date('2026-11-29T22:00:00Z');

let repo: TestRepo;
beforeEach(async () => {
  repo = makeTestRepo();
  await repo.withStore(async (store) => {
    await store.writeCapsule(capsuleDoc({ id: ulid(1) }), { now: NOW });
    await store.writeCapsule(capsuleDoc({ id: ulid(2), created_at: '2026-11-29T19:00:00Z' }), { now: NOW });
  });
});
afterEach(() => repo.cleanup());

function gitIn(args: string[], input?: string): string {
  return execFileSync('git', args, { cwd: repo.dir, env: repo.env, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] }).trim();
}

/**
 * Deletes one object. The store keeps the pack each write leaves, so every pack is first turned
 * back into loose objects (`unpack-objects` from the pack moved aside): then the object is one file.
 */
function deleteObject(oid: string): void {
  const packDir = join(repo.dir, '.git', 'objects', 'pack');
  for (const name of readdirSync(packDir).filter((f) => f.endsWith('.pack'))) {
    const aside = join(repo.dir, name);
    renameSync(join(packDir, name), aside);
    rmSync(join(packDir, name.replace(/\.pack$/, '.idx')), { force: true });
    // @types/node 20.9 and TypeScript 5.9 disagree about Buffer; it is a Uint8Array.
    execFileSync('git', ['unpack-objects', '-q'], { cwd: repo.dir, env: repo.env, input: readFileSync(aside) as unknown as Uint8Array });
    rmSync(aside);
  }
  rmSync(join(repo.dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2)));
}

function resume() {
  return runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: true });
}

/** Resume still prints its procedure, loads nothing, and says why. */
async function expectDegraded(reason: string): Promise<void> {
  const r = await resume();
  expect(r).toMatchObject({ capsuleId: null, consumed: false, unavailable: reason });
  expect(r.text.split('\n')[0]).toBe(PROCEDURE_BEGIN);
  expect(r.text).toContain(reason);
}

describe('resume on a corrupted memory branch', () => {
  it('degrades with memory-branch-unreadable when the ref points at an object that does not exist', async () => {
    writeFileSync(join(repo.dir, '.git', 'refs', 'heads', 'capsules'), `${'d'.repeat(40)}\n`);
    await expectDegraded('memory-branch-unreadable');
  });

  it('degrades with bad-memory-root when the ref points at a blob, not a commit (DESIGN §2: never written into)', async () => {
    const blob = gitIn(['hash-object', '-w', '--stdin'], 'not a commit\n');
    writeFileSync(join(repo.dir, '.git', 'refs', 'heads', 'capsules'), `${blob}\n`);
    await expectDegraded('bad-memory-root');
  });

  it('degrades with memory-branch-unreadable when the ref file holds garbage', async () => {
    writeFileSync(join(repo.dir, '.git', 'refs', 'heads', 'capsules'), 'garbage\u0000\u00ff\n');
    await expectDegraded('memory-branch-unreadable');
  });

  it('degrades with memory-branch-unreadable when the tip tree is missing', async () => {
    deleteObject(gitIn(['rev-parse', 'capsules^{tree}']));
    await expectDegraded('memory-branch-unreadable');
  });

  it('degrades with memory-branch-unreadable when the tip commit points at a bad tree', async () => {
    const badTree = gitIn(['hash-object', '-w', '-t', 'tree', '--literally', '--stdin'], 'this is not a tree');
    const commit = gitIn(['commit-tree', badTree, '-p', 'capsules', '-m', 'bad tree']);
    gitIn(['update-ref', 'refs/heads/capsules', commit]);
    await expectDegraded('memory-branch-unreadable');
  });

  it('names the capsule whose document blob is missing and still resumes another one', async () => {
    const path = gitIn(['ls-tree', '-r', '--name-only', 'capsules']).split('\n').find((p) => p.includes(ulid(1)) && p.endsWith('capsule.md')) as string;
    deleteObject(gitIn(['rev-parse', `capsules:${path}`]));
    const r = await resume();
    expect(r.text.split('\n')[0]).toBe(PROCEDURE_BEGIN);
    expect(r.capsuleId).toBe(ulid(2));
    expect(r.text).toContain('1x unreadable (capsule blob missing)');
  });
});
