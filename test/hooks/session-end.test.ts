import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCap, writeCap } from '../../lib/local-state/budget-state';
import { recordLiveSession } from '../../lib/local-state/lineage-record';
import { autosavesInFlight } from '../../lib/local-state/autosave-in-flight';
import { parseCapsule } from '../../lib/capsule/parse';
import { defaultDeps } from '../../lib/hooks/default-deps';
import type { HookEventName } from '../../lib/hosts/host';
import type { HookSpec } from '../../lib/hooks/run-hook';
import { makeSessionEndHook } from '../../lib/hooks/session-end';
import { makeStopHook } from '../../lib/hooks/stop';
import { git, makeTempRepo, payload, runHookIn, turnRecords, type TempRepo } from './hook-fixtures';

describe('makeSessionEndHook', () => {
  let repo: TempRepo;
  let transcript: string;
  beforeEach(() => {
    repo = makeTempRepo();
    transcript = join(repo.dir, '..', 'transcript.jsonl');
  });
  afterEach(() => repo.cleanup());

  const run = <E extends HookEventName>(spec: HookSpec<E>) => runHookIn(repo, spec, { transcript_path: transcript }, new Date('2026-11-29T21:00:00Z'));
  const docs = () =>
    git(repo.dir, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules')
      .split('\n')
      .filter((p) => p.endsWith('/capsule.md'))
      .map((p) => parseCapsule(git(repo.dir, 'show', `refs/heads/capsules:${p}`)).doc!);

  it('ends the budget cap its session set, and leaves one of another session or of every session', async () => {
    const session = String(payload('SessionEnd').session_id);
    writeCap(repo.stateDir, 100_000, new Date(), 'another-session');
    await run(makeSessionEndHook(defaultDeps));
    expect(readCap(repo.stateDir, 'another-session')).toBe(100_000);
    writeCap(repo.stateDir, 100_000, new Date(), session);
    expect(readCap(repo.stateDir, session)).toBe(100_000);
    await run(makeSessionEndHook(defaultDeps));
    expect(readCap(repo.stateDir, session)).toBeNull();
    writeCap(repo.stateDir, 100_000, new Date(), null);
    await run(makeSessionEndHook(defaultDeps));
    expect(readCap(repo.stateDir, session)).toBe(100_000);
  });

  // The client may start the next session's SessionStart(clear) before this hook ends: that
  // resume waits for a fold it can see (lib/hooks/fold-cleared.ts) instead of folding the same turn.
  it('marks its fold in flight while it opens the store and commits, and clears the mark after', async () => {
    const session = String(payload('SessionEnd').session_id);
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/a.ts` }));
    let seen: string[] = [];
    const watching = { ...defaultDeps, openStore: (o: Parameters<typeof defaultDeps.openStore>[0]) => ((seen = autosavesInFlight(repo.stateDir, new Date('2026-11-29T21:00:00Z'), { sessionId: session }).map((m) => m.sessionId)), defaultDeps.openStore(o)) };
    await run(makeSessionEndHook(watching));
    expect(seen).toEqual([session]);
    // On a loaded machine the runner may answer at its budget while the fold still commits: wait for the fold's end.
    const inFlight = () => autosavesInFlight(repo.stateDir, new Date('2026-11-29T21:00:00Z'), { sessionId: session });
    for (let i = 0; i < 300 && inFlight().length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(inFlight()).toEqual([]);
    expect(docs()).toHaveLength(1);
  });

  it('folds what happened after the last Stop into the session’s autosave', async () => {
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/a.ts` }));
    await run(makeStopHook(defaultDeps));
    appendFileSync(transcript, turnRecords({ cwd: repo.dir, n: 2, failing: 'make deploy' }));
    expect(await run(makeSessionEndHook(defaultDeps))).toEqual({ stdout: '' });
    expect(docs()).toHaveLength(1);
    expect(docs()[0]!.sections.errors.join('\n')).toContain('make deploy');
  });

  it('removes the hand-over records of client processes that are gone, which every resume would read', async () => {
    // A pid no process has (beyond pid_max) and this process itself.
    recordLiveSession(repo.stateDir, { host: 'claude', key: '99999999', pid: 99_999_999 }, 'gone-session', new Date(), { fresh: true });
    recordLiveSession(repo.stateDir, { host: 'claude', key: String(process.pid), pid: process.pid }, 'live-session', new Date(), { fresh: true });
    writeFileSync(transcript, '');
    await run(makeSessionEndHook(defaultDeps));
    expect(readdirSync(join(repo.stateDir, 'lineage'))).toEqual([`claude-${process.pid}.json`]);
  });

  it('starts no git process and writes nothing when nothing new was said', async () => {
    writeFileSync(transcript, '');
    const deps = { ...defaultDeps, openStore: async () => Promise.reject(new Error('must not open the store')) };
    expect(await run(makeSessionEndHook(deps))).toEqual({ stdout: '' });
  });
});
