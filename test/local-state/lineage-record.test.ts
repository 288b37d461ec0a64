import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HANDOVER_MAX_AGE_MS,
  LINEAGE_CHAIN_MAX,
  LINEAGE_RECORD_MAX_AGE_MS,
  lineageRecordPath,
  noteCarried,
  pruneDeadLineages,
  readLineage,
  readLiveSessions,
  recordHandOver,
  recordLiveSession,
  takeLineage,
} from '../../lib/local-state/lineage-record';
import type { LineageSignal } from '../../lib/local-state/lineage-signal';
import { processStartOf } from '../../lib/local-state/process-liveness';

const NOW = new Date('2026-11-29T21:00:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

describe('the hand-over record', () => {
  let dir: string;
  const sleepers: ChildProcess[] = [];
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'capsule-lineage-'))));
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const p of sleepers.splice(0)) p.kill('SIGKILL');
  });

  /** SIGKILLs a client process and waits until it is gone (reaped), not a fixed time a loaded machine may outlast. */
  function killed(p: ChildProcess): Promise<void> {
    const exited = new Promise<void>((done) => p.once('exit', () => done()));
    p.kill('SIGKILL');
    return exited;
  }

  /** A live client process of its own, as two terminals would be: its pid and start time are the signal. */
  function client(): LineageSignal {
    const p = spawn('sleep', ['60'], { stdio: 'ignore' });
    sleepers.push(p);
    const start = processStartOf(p.pid!);
    return { host: 'claude', key: String(p.pid), pid: p.pid!, ...(start ? { processStart: start } : {}) };
  }

  it('hands the session that ended with /clear to the one its client process starts next', () => {
    const a = client();
    recordLiveSession(dir, a, 'S0', NOW, { fresh: true });
    recordHandOver(dir, a, { from: 'S0', reason: 'clear', carried: 'C0' }, later(1000));
    expect(takeLineage(dir, a, 'S1', later(2000))).toEqual({ host: 'claude', key: a.key, sessions: ['S0'], reason: 'clear', carried: 'C0' });
  });

  it('keeps every earlier session of the lineage across /clears in a row', () => {
    const a = client();
    recordLiveSession(dir, a, 'S0', NOW, { fresh: true });
    for (const [from, to] of [['S0', 'S1'], ['S1', 'S2'], ['S2', 'S3']] as const) {
      recordHandOver(dir, a, { from, reason: 'clear' }, NOW);
      takeLineage(dir, a, to, NOW);
    }
    expect(readLineage(dir, a)?.sessions).toEqual(['S0', 'S1', 'S2', 'S3']);
  });

  it('never mixes the lineages of two concurrent client processes', () => {
    const a = client();
    const b = client();
    recordLiveSession(dir, a, 'A0', NOW, { fresh: true });
    recordLiveSession(dir, b, 'B0', NOW, { fresh: true });
    recordHandOver(dir, b, { from: 'B0', reason: 'clear' }, NOW);
    recordHandOver(dir, a, { from: 'A0', reason: 'clear' }, NOW);
    expect(takeLineage(dir, b, 'B1', NOW)?.sessions).toEqual(['B0']);
    expect(takeLineage(dir, a, 'A1', NOW)?.sessions).toEqual(['A0']);
  });

  it('falls back to the session the same process ran when no hand-over was left (SessionEnd cut short)', () => {
    const a = client();
    recordLiveSession(dir, a, 'S0', NOW, { fresh: true });
    expect(takeLineage(dir, a, 'S1', later(60_000))).toMatchObject({ sessions: ['S0'], reason: 'process' });
  });

  it('does not take a stale hand-over from a process it cannot prove is the same one', () => {
    const noStart: LineageSignal = { host: 'claude', key: '424242' };
    recordHandOver(dir, noStart, { from: 'S0', reason: 'clear' }, NOW);
    expect(takeLineage(dir, noStart, 'S1', later(HANDOVER_MAX_AGE_MS + 1))).toBeNull();
    expect(takeLineage(dir, noStart, 'S1', later(HANDOVER_MAX_AGE_MS - 1000))?.sessions).toEqual(['S0']);
  });

  it('ignores a record left by an earlier process that had the same pid', () => {
    const a = client();
    recordHandOver(dir, a, { from: 'S0', reason: 'clear' }, NOW);
    expect(takeLineage(dir, { ...a, processStart: `${a.processStart ?? '1'}9` }, 'S1', NOW)).toBeNull();
  });

  it('ignores a record past its lifetime', () => {
    const a = client();
    recordHandOver(dir, a, { from: 'S0', reason: 'clear' }, NOW);
    expect(takeLineage(dir, a, 'S1', later(LINEAGE_RECORD_MAX_AGE_MS + 1))).toBeNull();
  });

  it('starts a new lineage when the client process starts or resumes another session', () => {
    const a = client();
    recordHandOver(dir, a, { from: 'S0', reason: 'clear' }, NOW);
    takeLineage(dir, a, 'S1', NOW);
    recordLiveSession(dir, a, 'T0', NOW, { fresh: true });
    expect(readLineage(dir, a)?.sessions).toEqual(['T0']);
  });

  it('returns the same lineage when one SessionStart is registered twice', () => {
    const a = client();
    recordHandOver(dir, a, { from: 'S0', reason: 'clear' }, NOW);
    const first = takeLineage(dir, a, 'S1', NOW);
    expect(takeLineage(dir, a, 'S1', NOW)).toMatchObject({ sessions: first!.sessions });
  });

  it('remembers at most LINEAGE_CHAIN_MAX earlier sessions, the newest', () => {
    const a = client();
    for (let i = 0; i < LINEAGE_CHAIN_MAX + 5; i += 1) {
      recordHandOver(dir, a, { from: `S${i}`, reason: 'clear' }, NOW);
      takeLineage(dir, a, `S${i + 1}`, NOW);
    }
    const sessions = readLineage(dir, a)!.sessions;
    expect(sessions).toHaveLength(LINEAGE_CHAIN_MAX + 1);
    expect(sessions[sessions.length - 1]).toBe(`S${LINEAGE_CHAIN_MAX + 5}`);
  });

  it('carries the capsule the lineage stands on to the next hand-over', () => {
    const a = client();
    recordHandOver(dir, a, { from: 'S0', reason: 'clear' }, NOW);
    takeLineage(dir, a, 'S1', NOW);
    noteCarried(dir, a, 'C1', NOW);
    recordHandOver(dir, a, { from: 'S1', reason: 'clear' }, NOW);
    expect(takeLineage(dir, a, 'S2', NOW)?.carried).toBe('C1');
  });

  it('lists the sessions of other live client processes, never its own or a dead one', () => {
    const a = client();
    const b = client();
    const gone = client();
    recordLiveSession(dir, a, 'A0', NOW, { fresh: true });
    recordLiveSession(dir, b, 'B0', NOW, { fresh: true });
    recordLiveSession(dir, gone, 'G0', NOW, { fresh: true });
    return killed(sleepers.pop()!).then(() => {
      expect(readLiveSessions(dir, a, NOW)).toEqual(['B0']);
    });
  });

  it('lists the earlier sessions of a live client process too: its whole lineage is live', () => {
    const a = client();
    const b = client();
    recordLiveSession(dir, a, 'A0', NOW, { fresh: true });
    recordLiveSession(dir, b, 'B0', NOW, { fresh: true });
    recordHandOver(dir, b, { from: 'B0', reason: 'clear' }, NOW);
    takeLineage(dir, b, 'B1', NOW);
    expect(readLiveSessions(dir, a, NOW)).toEqual(['B0', 'B1']);
  });

  it('prunes the records of client processes that are gone or whose pid a later process took, keeping live ones and pid-less ones', async () => {
    const live = client();
    const gone = client();
    recordLiveSession(dir, live, 'L0', NOW, { fresh: true });
    recordLiveSession(dir, gone, 'G0', NOW, { fresh: true });
    const reused: LineageSignal = { ...live, key: `${live.key}0`, processStart: '1' };
    recordLiveSession(dir, { ...reused, pid: live.pid }, 'R0', NOW, { fresh: true });
    recordLiveSession(dir, { host: 'claude', key: 'no-pid' }, 'N0', NOW, { fresh: true });
    await killed(sleepers.pop()!);
    expect(pruneDeadLineages(dir)).toBe(2);
    expect(readdirSync(join(dir, 'lineage')).sort()).toEqual([`claude-${live.key}.json`, 'claude-no-pid.json']);
    expect(readLineage(dir, live)?.sessions).toEqual(['L0']);
    expect(pruneDeadLineages(dir)).toBe(0);
  });

  it('treats an unreadable record as absent', () => {
    const a = client();
    recordLiveSession(dir, a, 'S0', NOW, { fresh: true });
    writeFileSync(lineageRecordPath(dir, a), '{"format":1,"chain":"not a list"');
    expect(takeLineage(dir, a, 'S1', NOW)).toBeNull();
  });

  it('does nothing without a usable signal', () => {
    recordHandOver(dir, null, { from: 'S0', reason: 'clear' }, NOW);
    recordHandOver(dir, { host: 'claude', key: '../../etc' }, { from: 'S0', reason: 'clear' }, NOW);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leaves no temporary file behind', () => {
    const a = client();
    recordHandOver(dir, a, { from: 'S0', reason: 'clear' }, NOW);
    takeLineage(dir, a, 'S1', NOW);
    expect(readdirSync(join(dir, 'lineage'))).toEqual([`claude-${a.key}.json`]);
  });

  it('keeps each record private to the user (0600, in a 0700 folder), like all runtime state', () => {
    const a = client();
    recordLiveSession(dir, a, 'S0', NOW, { fresh: true });
    expect(statSync(lineageRecordPath(dir, a)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'lineage')).mode & 0o777).toBe(0o700);
  });
});
