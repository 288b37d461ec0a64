import { readSessionState } from '../../../lib/local-state/session-state';
import { runResume } from '../../../lib/resume-runtime/run-resume';
import { RESUME_TEXT_MAX } from '../../../lib/resume/render-resume';
import { PROCEDURE_BEGIN } from '../../../lib/resume/procedure';
import { importCapsules, type BulkCapsule } from '../../support/bulk-capsules';
import { capsuleDoc, ulid } from '../../support/capsule-doc';
import { runBundle, runCli } from '../../support/run-cli';
import { makeTestRepo, type TestRepo } from '../../resume-runtime/repo';

const NOW = new Date('2026-11-29T22:00:00Z');

describe('git capsule resume', () => {
  let repo: TestRepo;
  beforeEach(async () => {
    repo = makeTestRepo();
    await repo.withStore((store) => store.writeCapsule(capsuleDoc({ id: ulid(1) }), { now: NOW }));
  });
  afterEach(() => repo.cleanup());

  it('prints exactly the text the hook injects', async () => {
    const hook = await runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: false });
    const cli = await runCli(['resume', '--session-id', 'session-B', '--no-consume'], { cwd: repo.dir, env: repo.env, now: NOW });
    expect(cli).toEqual({ code: 0, stdout: hook.text, stderr: '' });
  });

  it('consumes by default and reports it with --json', async () => {
    const cli = await runCli(['resume', '--json', '--session-id', 'session-B'], { cwd: repo.dir, env: repo.env, now: NOW });
    expect(JSON.parse(cli.stdout)).toMatchObject({ capsuleId: ulid(1), consumed: true, deferred: false, unavailable: null });
    expect((await repo.withStore((s) => s.readCapsule(ulid(1)))).status).toBe('resumed');
  });

  it('resumes the capsule named by --id', async () => {
    const cli = await runCli(['resume', '--id', ulid(1), '--no-consume', '--json'], { cwd: repo.dir, env: repo.env, now: NOW });
    expect(JSON.parse(cli.stdout).capsuleId).toBe(ulid(1));
  });

  it('says CURRENT_SESSION_ID_UNAVAILABLE without --session-id', async () => {
    const cli = await runCli(['resume', '--no-consume'], { cwd: repo.dir, env: repo.env, now: NOW });
    expect(cli.stdout).toContain('current session: CURRENT_SESSION_ID_UNAVAILABLE');
  });

  it("takes the current session from Codex's exec_command shell and records that the session goes on from what it loaded", async () => {
    const cli = await runCli(['resume', '--json'], { cwd: repo.dir, env: { ...repo.env, CODEX_SESSION_ID: 'codex-s2' }, now: NOW });
    expect(JSON.parse(cli.stdout)).toMatchObject({ capsuleId: ulid(1), consumed: true });
    expect(JSON.parse(cli.stdout).text).toContain('current session: "codex-s2"');
    expect(readSessionState(repo.stateDir, 'codex-s2')).toMatchObject({ parentCapsuleId: ulid(1), seedDoc: expect.objectContaining({ frontmatter: expect.objectContaining({ id: ulid(1) }) }) });
  });

  it('exits 2 on an unknown flag', async () => {
    expect((await runCli(['resume', '--frobnicate'], { cwd: repo.dir, env: repo.env })).code).toBe(2);
  });
});

describe('git capsule resume on a branch of 10,000 capsules', () => {
  let repo: TestRepo;
  beforeAll(async () => {
    repo = makeTestRepo();
    const capsules: BulkCapsule[] = [];
    for (let i = 0; i < 9940; i += 1) capsules.push({ fields: { id: ulid(1000 + i), created_at: stamp(i) }, events: [i % 10 === 0 ? 'resolved' : 'resumed'] });
    for (let i = 0; i < 47; i += 1) capsules.push({ fields: { id: ulid(20000 + i), created_at: `2026-11-29T21:${String(i).padStart(2, '0')}:00Z`, next_valid_action: undefined } });
    for (let i = 0; i < 10; i += 1) capsules.push({ fields: { id: ulid(30000 + i), created_at: stamp(i) }, events: ['paused'] });
    capsules.push({ fields: { id: ulid(40000), created_at: stamp(5), objective: `FORGED\n${'x'.repeat(3000)}` }, events: ['abandoned'] });
    capsules.push({ fields: { id: ulid(50001), created_at: '2026-11-29T20:00:00Z', objective: 'the one to resume' } });
    capsules.push({ fields: { id: ulid(50000), created_at: '2026-11-29T19:00:00Z' } });
    await repo.withStore(async (store) => {
      await store.init();
      importCapsules(repo.dir, repo.env, store.ref, capsules);
    });
  }, 120_000);
  afterAll(() => repo.cleanup());

  it('selects the newest valid capsule and stays within 10,000 characters', () => {
    const r = runBundle(['resume', '--session-id', 'session-B'], { cwd: repo.dir, env: repo.env });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeLessThanOrEqual(RESUME_TEXT_MAX);
    expect(r.stdout.startsWith(`${PROCEDURE_BEGIN}\n`)).toBe(true);
    expect(r.stdout).toContain(`capsule ${ulid(50001)}`);
    expect(r.stdout).toContain('CAPSULES NOT SELECTED (9999):');
    expect(r.stdout).toContain('47x missing-required-field (next_valid_action)');
    expect(r.stdout).toContain('10x not-active (paused)');
    expect(r.stdout).toMatch(/\d+x already-consumed \(resumed\)/);
  });
});

function stamp(i: number): string {
  return new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
}
