import { spawn, type ChildProcess } from 'node:child_process';
import { recordHandOver, takeLineage, recordLiveSession } from '../../../lib/local-state/lineage-record';
import { processStartOf } from '../../../lib/local-state/process-liveness';
import { readSessionState } from '../../../lib/local-state/session-state';
import type { LineageSignal } from '../../../lib/local-state/lineage-signal';
import { capsuleDoc, ulid } from '../../support/capsule-doc';
import { runCli } from '../../support/run-cli';
import { makeTestRepo, type TestRepo } from '../../resume-runtime/repo';

const NOW = new Date('2026-11-29T22:00:00Z');

// `git capsule resume` as the agent runs it from the Bash tool inside a Claude Code session: the
// environment names the client process (CLAUDE_PID) and the session (CLAUDE_CODE_SESSION_ID).
describe('git capsule resume inside a session', () => {
  let repo: TestRepo;
  let client: ChildProcess;
  let other: ChildProcess;
  let signal: LineageSignal;
  const signalOf = (p: ChildProcess): LineageSignal => ({ host: 'claude', key: String(p.pid), pid: p.pid!, ...(processStartOf(p.pid!) ? { processStart: processStartOf(p.pid!)! } : {}) });
  beforeEach(async () => {
    repo = makeTestRepo();
    client = spawn('sleep', ['60'], { stdio: 'ignore' });
    other = spawn('sleep', ['60'], { stdio: 'ignore' });
    signal = signalOf(client);
    // This client ran S0, cleared it, and runs S1 now; another live client runs T0.
    recordLiveSession(repo.stateDir, signal, 'S0', NOW, { fresh: true });
    recordHandOver(repo.stateDir, signal, { from: 'S0', reason: 'clear' }, NOW);
    takeLineage(repo.stateDir, signal, 'S1', NOW);
    recordLiveSession(repo.stateDir, signalOf(other), 'T0', NOW, { fresh: true });
    await repo.withStore(async (store) => {
      await store.writeCapsule(capsuleDoc({ id: ulid(1), session_id: 'S0', objective: 'S0 work', created_at: '2026-11-29T20:00:00Z' }), { now: NOW });
      await store.writeCapsule(capsuleDoc({ id: ulid(2), session_id: 'T0', objective: 'T0 work', created_at: '2026-11-29T21:00:00Z' }), { now: NOW });
      await store.writeCapsule(capsuleDoc({ id: ulid(3), session_id: 'S1', objective: 'S1 own work', created_at: '2026-11-29T21:30:00Z' }), { now: NOW });
    });
  });
  afterEach(() => {
    client.kill('SIGKILL');
    other.kill('SIGKILL');
    repo.cleanup();
  });
  const inSession = (args: string[]) => runCli(['resume', ...args], { cwd: repo.dir, env: { ...repo.env, CLAUDE_PID: String(client.pid), CLAUDE_CODE_SESSION_ID: 'S1' }, now: NOW });

  it("resumes the session's own lineage, never another live session's capsule or its own", async () => {
    const out = await inSession(['--json']);
    expect(JSON.parse(out.stdout)).toMatchObject({ capsuleId: ulid(1), consumed: true });
    const text = (await inSession(['--no-consume'])).stdout;
    // T0's capsule (another live client) and S1's own (the session this runs in) are both live.
    expect(text).toContain('1x live-session (another live session on this machine');
    expect(text).toContain('1x live-session (this session, still running');
    expect(text).toContain(`id "${ulid(2)}"`);
    expect(text).toContain(`id "${ulid(3)}"`);
  });

  it('seeds the session so its next autosave folds on top of what it loaded', async () => {
    await inSession([]);
    const state = readSessionState(repo.stateDir, 'S1');
    expect(state.parentCapsuleId).toBe(ulid(1));
    expect(state.seedDoc?.frontmatter.objective).toBe('S0 work');
  });

  it('takes another session\'s capsule on purpose with --id', async () => {
    const out = await inSession(['--id', ulid(2), '--json']);
    expect(JSON.parse(out.stdout)).toMatchObject({ capsuleId: ulid(2), consumed: true });
  });
});
