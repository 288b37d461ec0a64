import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runResume, type RunResumeOptions } from '../../lib/resume-runtime/run-resume';
import { RESUME_PARSE_BUDGET_BYTES } from '../../lib/resume-runtime/select-from-store';
import { SESSION_ID_UNAVAILABLE } from '../../lib/resume/session-authority';
import { DEFAULT_MEMORY_REF } from '../../lib/store/memory-format';
import { importCapsules } from '../support/bulk-capsules';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { makeTestRepo, type TestRepo } from './repo';

const NOW = new Date('2026-11-29T22:00:00Z');
const EXT = '.capsule/lifecycle-extension.json';

let repo: TestRepo;
beforeEach(() => {
  repo = makeTestRepo();
});
afterEach(() => repo.cleanup());

async function seed(...docs: Array<Record<string, unknown>>): Promise<void> {
  await repo.withStore(async (store) => {
    for (const fields of docs) await store.writeCapsule(capsuleDoc(fields), { now: NOW });
  });
}

function resume(opts: Partial<RunResumeOptions> = {}) {
  return runResume({ cwd: repo.dir, env: repo.env, now: NOW, sessionId: 'session-B', consume: true, ...opts });
}

async function statusOf(id: string) {
  return repo.withStore((store) => store.readCapsule(id));
}

function errorLog(): string {
  const path = join(repo.stateDir, 'errors.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

describe('runResume', () => {
  it('writes the resumed status event with the session id before returning, and the next resume does not select it', async () => {
    await seed({ id: ulid(1) });
    const first = await resume();
    expect(first).toMatchObject({ capsuleId: ulid(1), consumed: true, deferred: false, unavailable: null });
    const record = await statusOf(ulid(1));
    expect(record.status).toBe('resumed');
    expect(record.events.map((e) => [e.status, e.writer])).toContainEqual(['resumed', 'session-B']);
    const second = await resume();
    expect(second).toMatchObject({ capsuleId: null, unavailable: 'all-candidates-rejected' });
    expect(second.text).toContain('1x already-consumed (resumed)');
  });

  it('prints without consuming when consume is false', async () => {
    await seed({ id: ulid(1) });
    expect(await resume({ consume: false })).toMatchObject({ capsuleId: ulid(1), consumed: false });
    expect((await statusOf(ulid(1))).status).toBe('active');
    expect((await resume({ consume: false })).capsuleId).toBe(ulid(1));
  });

  it('selects the newest valid active capsule and names the others', async () => {
    await seed({ id: ulid(1), created_at: '2026-11-29T20:00:00Z' }, { id: ulid(2), created_at: '2026-11-29T21:00:00Z', status: 'paused' }, { id: ulid(3), created_at: '2026-11-29T19:00:00Z' });
    const r = await resume({ consume: false });
    expect(r.capsuleId).toBe(ulid(1));
    expect(r.text).toContain('1x not-active (paused)');
    expect(r.text).toContain('1x superseded');
  });

  it('reads past a first round of invalid active capsules and counts the unread older ones as superseded', async () => {
    await seed({ id: ulid(99), created_at: '2026-10-01T00:00:00Z', status: 'paused' }); // creates the branch
    const stamp = (minutesAgo: number) => new Date(Date.parse('2026-11-29T20:00:00Z') - minutesAgo * 60_000).toISOString();
    // Newest first: 8 invalid (the whole first round of 8), the valid winner, then 70 older. The
    // second round reads down to the 64th, so 55 older ones are read and 15 only counted.
    const invalid = Array.from({ length: 8 }, (_, i) => ({ fields: { id: ulid(100 + i), created_at: stamp(i), objective: '' } }));
    const older = Array.from({ length: 70 }, (_, i) => ({ fields: { id: ulid(200 + i), created_at: stamp(9 + i) } }));
    importCapsules(repo.dir, repo.env, DEFAULT_MEMORY_REF, [{ fields: { id: ulid(99), created_at: '2026-10-01T00:00:00Z', status: 'paused' } }, ...invalid, { fields: { id: ulid(10), created_at: stamp(8) } }, ...older]);
    const r = await resume({ consume: false });
    expect(r.capsuleId).toBe(ulid(10));
    expect(r.text).toContain('CAPSULES NOT SELECTED (79):');
    expect(r.text).toContain('8x missing-required-field (objective: empty)');
    expect(r.text).toContain('1x not-active (paused)');
    expect(r.text).toContain('55x superseded (valid, older than the selected capsule)');
    expect(r.text).toContain('15x superseded (not read: older than the selected capsule)');
  });

  it('parses at most RESUME_PARSE_BUDGET_BYTES of capsule text, and counts what it did not read', async () => {
    await seed({ id: ulid(99), created_at: '2026-10-01T00:00:00Z', status: 'paused' }); // creates the branch
    const stamp = (minutesAgo: number) => new Date(Date.parse('2026-11-29T20:00:00Z') - minutesAgo * 60_000).toISOString();
    // Twelve ~240 KB capsules a remote pushed (too long to be valid, each costing a parse), then a valid one.
    const big = Array.from({ length: 12 }, (_, i) => ({ fields: { id: ulid(300 + i), created_at: stamp(i) }, text: `---\nid: ${ulid(300 + i)}\nobjective: "${'x'.repeat(240 * 1024)}"\nwaiting_on: nothing\nnext_valid_action: go\nstatus: active\ncreated_at: ${stamp(i)}\n---\n` }));
    importCapsules(repo.dir, repo.env, DEFAULT_MEMORY_REF, [{ fields: { id: ulid(99), created_at: '2026-10-01T00:00:00Z', status: 'paused' } }, ...big, { fields: { id: ulid(11), created_at: stamp(20) } }]);
    const r = await resume({ consume: false });
    expect(RESUME_PARSE_BUDGET_BYTES).toBe(2 * 1024 * 1024);
    expect(r.capsuleId).toBeNull();
    expect(r.text).toMatch(/8x \S+/); // the eight that fit the budget were parsed and rejected
    expect(r.text).toContain('5x unreadable (not read)');
  });

  it('resumes the capsule named by capsuleId, and says capsule-not-found for an unknown one', async () => {
    await seed({ id: ulid(1), created_at: '2026-11-29T20:00:00Z' }, { id: ulid(2), created_at: '2026-11-29T19:00:00Z' });
    expect((await resume({ consume: false, capsuleId: ulid(2) })).capsuleId).toBe(ulid(2));
    expect(await resume({ capsuleId: '01ZZZZZZZZ' })).toMatchObject({ capsuleId: null, unavailable: 'capsule-not-found' });
  });

  it('measures how many commits HEAD moved since repo_head', async () => {
    const head = repo.git(['rev-parse', 'HEAD']);
    repo.git(['commit', '-q', '--allow-empty', '-m', 'later 1']);
    repo.git(['commit', '-q', '--allow-empty', '-m', 'later 2']);
    await seed({ id: ulid(1), repo_head: head });
    expect((await resume()).text).toMatch(/^project HEAD: moved 2 commits since repo_head "[0-9a-f]{40}"; HEAD is now "[0-9a-f]{12}" on "main"/m);
  });

  describe('store problems become unavailable, never exceptions', () => {
    it('says no-memory-branch in a repository without one', async () => {
      const r = await resume();
      expect(r).toMatchObject({ capsuleId: null, unavailable: 'no-memory-branch', consumed: false });
      expect(r.text).toContain('CAPSULE DATA: none loaded: no-memory-branch.');
    });

    it('says no-memory-branch outside any repository', async () => {
      const r = await runResume({ cwd: repo.stateDir.replace(/state$/, ''), env: repo.env, now: NOW, sessionId: 'session-B', consume: true });
      expect(r.unavailable).toBe('no-memory-branch');
    });

    it('says bad-memory-root for a malformed capsule.ref, names MEMORY-ROOT and logs it', async () => {
      await seed({ id: ulid(1) });
      repo.git(['config', 'capsule.ref', 'heads/not-under-refs']);
      const r = await resume();
      expect(r).toMatchObject({ capsuleId: null, unavailable: 'bad-memory-root' });
      expect(r.text).toContain('MEMORY-ROOT');
      expect(errorLog()).toMatch(/^MEMORY_ROOT /m);
    });
  });

  describe('session authority', () => {
    function writeReceipt(sessionId: unknown): string {
      mkdirSync(repo.stateDir, { recursive: true });
      const path = join(repo.stateDir, 'boot-receipt.json');
      writeFileSync(path, JSON.stringify({ session_id: sessionId }));
      return path;
    }

    it('uses the hook id over a stale receipt, names the mismatch and consumes as the hook session', async () => {
      await seed({ id: ulid(1) });
      const path = writeReceipt('session-A');
      const r = await resume({ sessionId: 'session-B' });
      expect(r.text).toMatch(/^current session: "session-B"/m);
      expect(r.text).toContain(`MISMATCH: boot receipt "${path}" holds "session-A"`);
      expect((await statusOf(ulid(1))).events.map((e) => e.writer)).toContain('session-B');
      expect((await statusOf(ulid(1))).events.map((e) => e.writer)).not.toContain('session-A');
    });

    it('records a match with the resolved receipt path', async () => {
      await seed({ id: ulid(1) });
      const path = writeReceipt('session-B');
      expect((await resume()).text).toContain(`boot receipt "${path}" names the same session (match recorded)`);
    });

    it('neither uses nor offers a readable stale receipt when the hook gave no id', async () => {
      await seed({ id: ulid(1) });
      writeReceipt('session-A');
      const r = await resume({ sessionId: undefined });
      expect(r.text).toContain(`current session: ${SESSION_ID_UNAVAILABLE}`);
      expect(r.text).not.toContain('session-A');
      expect(r.text).not.toMatch(/receipt/i);
      expect((await statusOf(ulid(1))).events.map((e) => e.writer)).not.toContain('session-A');
    });

    it('treats a non-string hook id as invalid, never [object Object]', async () => {
      await seed({ id: ulid(1) });
      writeReceipt('session-A');
      const r = await resume({ sessionId: { id: 'session-B' } });
      expect(r.text).not.toContain('[object Object]');
      expect(r.text).toContain(`current session: ${SESSION_ID_UNAVAILABLE} (the hook's session_id was invalid: an object`);
      expect(r.text).not.toContain('session-A');
    });

    it('degrades to the hook id when the receipt is malformed', async () => {
      await seed({ id: ulid(1) });
      mkdirSync(repo.stateDir, { recursive: true });
      writeFileSync(join(repo.stateDir, 'boot-receipt.json'), '{not json');
      expect((await resume()).text).toMatch(/cross-check: boot receipt ".*" is not valid JSON; the hook id above is used\./);
    });
  });

  describe('coordination guard', () => {
    function coordinate(phase: unknown): NodeJS.ProcessEnv {
      const path = repo.write('coordination.json', JSON.stringify({ phase }));
      return { ...repo.env, CAPSULE_COORDINATION_STATE: path };
    }

    it.each(['running', 'clearing', 'Done'])('defers with one line and consumes nothing while phase is %p', async (phase) => {
      await seed({ id: ulid(1) });
      const r = await resume({ env: coordinate(phase) });
      expect(r).toMatchObject({ deferred: true, consumed: false, capsuleId: null });
      expect(r.text.trimEnd().split('\n')).toHaveLength(1);
      expect(r.text).toMatch(/^CAPSULE-COORDINATION: resume deferred: /);
      expect((await statusOf(ulid(1))).status).toBe('active');
    });

    it.each(['done', 'cancelled', 'closed', 'complete', 'aborted'])('does not defer once phase is %p', async (phase) => {
      expect(await resume({ env: coordinate(phase) })).toMatchObject({ deferred: false, unavailable: 'no-memory-branch' });
    });

    it('resumes and consumes normally after a terminal phase', async () => {
      await seed({ id: ulid(1) });
      expect(await resume({ env: coordinate('done') })).toMatchObject({ deferred: false, consumed: true });
    });

    it('is checked before the store: it defers even when the memory root is bad', async () => {
      repo.git(['config', 'capsule.ref', 'heads/bad']);
      expect((await resume({ env: coordinate('running') })).deferred).toBe(true);
    });

    it('fails open with a notice when the state file is not JSON', async () => {
      await seed({ id: ulid(1) });
      const path = repo.write('coordination.json', '{');
      const r = await resume({ env: { ...repo.env, CAPSULE_COORDINATION_STATE: path } });
      expect(r).toMatchObject({ deferred: false, consumed: true });
      expect(r.text).toMatch(/^CAPSULE-COORDINATION: state file ".*" is not JSON/m);
    });
  });

  describe('lifecycle extension', () => {
    it('renders an accepted declaration from the project', async () => {
      await seed({ id: ulid(1) });
      repo.write(EXT, JSON.stringify({ schema: 'LifecycleExtension/v2', resume_preload: ['read STANDING.md'], resume_ack: 'PROTO resumed {capsule_id}' }));
      const r = await resume();
      expect(r.text).toContain('0.1 PRE-LOAD (declared by this install, runs BEFORE step 1): read STANDING.md');
      expect(r.text).toContain(`5. ACK (declared by this install, runs after step 4): PROTO resumed ${ulid(1)}`);
    });

    it('refuses an invalid declaration whole, in the text and in the error log', async () => {
      await seed({ id: ulid(1) });
      const path = repo.write(EXT, JSON.stringify({ schema: 'LifecycleExtension/v1', resume_ack: 'PROTO resumed {capsule_id}', resume_preload: ['read x'] }));
      const r = await resume();
      const line = `LIFECYCLE-EXTENSION: declaration ignored: "${path}": unsupported key "resume_preload" for LifecycleExtension/v1`;
      expect(r.text.split('\n')).toContain(line);
      expect(r.text).not.toContain('PROTO resumed');
      expect(errorLog()).toMatch(/^LIFECYCLE_EXTENSION \S+ resume LIFECYCLE-EXTENSION: declaration ignored: /m);
      expect(errorLog()).toContain(line);
    });

    it('still reads the declaration when the memory root is bad', async () => {
      repo.git(['config', 'capsule.ref', 'heads/bad']);
      repo.write(EXT, JSON.stringify({ schema: 'LifecycleExtension/v2', resume_preload: ['read STANDING.md'] }));
      const r = await resume({ cwd: repo.write('sub/.keep', '').replace(/\/\.keep$/, '') });
      expect(r.unavailable).toBe('bad-memory-root');
      expect(r.text).toContain('0.1 PRE-LOAD (declared by this install, runs BEFORE step 1): read STANDING.md');
    });

    it('refuses a declaration that is not JSON', async () => {
      await seed({ id: ulid(1) });
      repo.write(EXT, '{ "schema": ');
      expect((await resume()).text).toMatch(/^LIFECYCLE-EXTENSION: declaration ignored: ".*": not JSON/m);
    });

    it('logs a resume_ack that could not be rendered because no capsule was loaded', async () => {
      repo.write(EXT, JSON.stringify({ schema: 'LifecycleExtension/v1', resume_ack: 'PROTO resumed {capsule_id}' }));
      const r = await resume();
      expect(r.text).toMatch(/^LIFECYCLE-EXTENSION: resume_ack not rendered: /m);
      expect(errorLog()).toMatch(/^LIFECYCLE_EXTENSION .*LIFECYCLE-EXTENSION: resume_ack not rendered: /m);
    });
  });
});
