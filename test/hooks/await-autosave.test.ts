import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { awaitAutosave } from '../../lib/hooks/await-autosave';
import type { HookContext, HookSpec } from '../../lib/hooks/run-hook';
import type { HookEventName } from '../../lib/hosts/host';
import { makePreCompactHook } from '../../lib/hooks/pre-compact';
import { makeSessionEndHook } from '../../lib/hooks/session-end';
import { makeSessionStartHook } from '../../lib/hooks/session-start';
import { makeStopHook } from '../../lib/hooks/stop';
import { autosavesInFlight, IN_FLIGHT_STALE_MS, type InFlightMarker } from '../../lib/local-state/autosave-in-flight';
import { makeTempRepo, payload, readErrorLog, runHookIn, turnRecords, type TempRepo } from './hook-fixtures';

const NOW = new Date('2026-11-29T21:00:00Z');
const SESSION = String(payload('Stop').session_id);

/** A marker as a Stop hook of process `pid` leaves it while it commits. */
function plantMarker(stateDir: string, marker: Partial<InFlightMarker> & { pid: number }): void {
  mkdirSync(join(stateDir, 'in-flight'), { recursive: true, mode: 0o700 });
  const full: InFlightMarker = { sessionId: SESSION, lineage: null, at: NOW.toISOString(), ...marker };
  writeFileSync(join(stateDir, 'in-flight', `${full.sessionId}.json`), JSON.stringify(full), { mode: 0o600 });
}

function ctxIn(repo: TempRepo, warnings: string[]): HookContext {
  return { runtimeDir: repo.stateDir, now: () => NOW, warn: (code: string) => warnings.push(code) } as unknown as HookContext;
}

/** A process id that no longer runs: a child that already exited (and was reaped). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('awaitAutosave', () => {
  let repo: TempRepo;
  let sleeper: ChildProcess;
  beforeEach(() => {
    repo = makeTempRepo();
    sleeper = spawn('sleep', ['30'], { stdio: 'ignore' }); // stands for a Stop hook still committing
  });
  afterEach(() => {
    sleeper.kill('SIGKILL');
    repo.cleanup();
  });

  it('goes on at once and logs nothing when no autosave is in flight', async () => {
    const warnings: string[] = [];
    expect(await awaitAutosave(ctxIn(repo, warnings), { sessionId: SESSION })).toBe('none');
    expect(warnings).toEqual([]);
  });

  it('waits for a live Stop of the session until its marker is removed', async () => {
    plantMarker(repo.stateDir, { pid: sleeper.pid! });
    const warnings: string[] = [];
    setTimeout(() => rmSync(join(repo.stateDir, 'in-flight', `${SESSION}.json`)), 100);
    expect(await awaitAutosave(ctxIn(repo, warnings), { sessionId: SESSION })).toBe('settled');
    expect(warnings).toEqual([]);
  });

  it('gives up after its bound and says so with AUTOSAVE_IN_FLIGHT', async () => {
    plantMarker(repo.stateDir, { pid: sleeper.pid! });
    const warnings: string[] = [];
    expect(await awaitAutosave(ctxIn(repo, warnings), { sessionId: SESSION }, 100)).toBe('gave-up');
    expect(warnings).toEqual(['AUTOSAVE_IN_FLIGHT']);
  });

  it.each([
    ['whose process is gone', () => ({ pid: deadPid() })],
    ['older than the stale bound', () => ({ at: new Date(NOW.getTime() - IN_FLIGHT_STALE_MS - 1).toISOString() })],
    ['of another session', () => ({ sessionId: 'another-session' })],
  ])('does not wait for a marker %s', async (_what, marker) => {
    plantMarker(repo.stateDir, { pid: sleeper.pid!, ...marker() });
    expect(await awaitAutosave(ctxIn(repo, []), { sessionId: SESSION }, 100)).toBe('none');
  });

  it("waits, by lineage, only for its own client's Stop (any client's without a signal)", async () => {
    plantMarker(repo.stateDir, { pid: sleeper.pid!, lineage: 'claude-111' });
    expect(await awaitAutosave(ctxIn(repo, []), { lineage: 'claude-222' }, 100)).toBe('none');
    expect(await awaitAutosave(ctxIn(repo, []), { lineage: 'claude-111' }, 100)).toBe('gave-up');
    expect(await awaitAutosave(ctxIn(repo, []), { lineage: null }, 100)).toBe('gave-up');
  });
});

// Each hook that reads or consumes the branch waits before it does: with a Stop of the session
// still in flight (a live marker), it logs AUTOSAVE_IN_FLIGHT and goes on (fails open).
describe('the hooks that read or consume the memory branch', () => {
  let repo: TempRepo;
  let sleeper: ChildProcess;
  let transcript: string;
  beforeEach(() => {
    repo = makeTempRepo();
    sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    transcript = join(repo.dir, '..', 'transcript.jsonl');
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/a.ts` }));
  });
  afterEach(() => {
    sleeper.kill('SIGKILL');
    repo.cleanup();
  });
  const run = <E extends HookEventName>(spec: HookSpec<E>, fields: Record<string, unknown> = {}) => runHookIn(repo, spec, { transcript_path: transcript, ...fields }, NOW);

  it.each([
    ['SessionEnd', () => makeSessionEndHook(defaultDeps), {}],
    ['PreCompact', () => makePreCompactHook(defaultDeps), {}],
    ['SessionStart(clear)', () => makeSessionStartHook(defaultDeps), { source: 'clear' }],
    ['SessionStart(compact)', () => makeSessionStartHook(defaultDeps), { source: 'compact' }],
    // In the background, the next turn's Stop may start while the last one still commits.
    ['Stop', () => makeStopHook(defaultDeps), {}],
  ])('%s waits for a Stop still committing, then goes on and logs AUTOSAVE_IN_FLIGHT', async (_event, make, fields) => {
    await run(makeStopHook(defaultDeps)); // a branch to read
    plantMarker(repo.stateDir, { pid: sleeper.pid! });
    await run(make() as HookSpec<HookEventName>, fields);
    expect(readErrorLog(repo.stateDir).filter((l) => l.includes('AUTOSAVE_IN_FLIGHT'))).toHaveLength(1);
  }, 20_000);

  it('SessionStart(startup) does not wait (it only orients)', async () => {
    plantMarker(repo.stateDir, { pid: sleeper.pid! });
    await run(makeSessionStartHook(defaultDeps), { source: 'startup' });
    expect(readErrorLog(repo.stateDir).some((l) => l.includes('AUTOSAVE_IN_FLIGHT'))).toBe(false);
  });

  it('Stop marks its autosave in flight while it commits and removes the marker after', async () => {
    let seen: InFlightMarker[] = [];
    const deps = {
      ...defaultDeps,
      openStore: async (o: Parameters<typeof defaultDeps.openStore>[0]) => {
        const store = await defaultDeps.openStore(o);
        const write = store.writeCapsule.bind(store);
        store.writeCapsule = (async (...args: Parameters<typeof write>) => {
          seen = autosavesInFlight(repo.stateDir, NOW);
          return write(...args);
        }) as typeof store.writeCapsule;
        return store;
      },
    };
    await run(makeStopHook(deps));
    expect(seen.map((m) => [m.sessionId, m.pid])).toEqual([[SESSION, process.pid]]);
    expect(existsSync(join(repo.stateDir, 'in-flight')) ? readdirSync(join(repo.stateDir, 'in-flight')) : []).toEqual([]);
  });
});
