import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isUsableSignal, type LineageSignal } from './lineage-signal';
import { writePrivateFile } from './private-file';
import { isProcessAlive } from './process-liveness';
import { STATE_FILES } from './state-files';

/** The folder of hand-over records inside the runtime dir (STATE_FILES.lineage): one file per client process, `<host>-<key>.json`. */
export const LINEAGE_DIR = STATE_FILES.lineage.path.slice(0, -1);
/** A hand-over older than this is not taken: the next session started too long after the last one ended. */
export const HANDOVER_MAX_AGE_MS = 15 * 60_000;
/** Records untouched this long are ignored, and pruned with the rest of the local state (pruneLocalState). */
export const LINEAGE_RECORD_MAX_AGE_MS = STATE_FILES.lineage.maxAgeMs;
/** At most this many earlier sessions are remembered per lineage (the newest ones). */
export const LINEAGE_CHAIN_MAX = 32;

/** What an ending session leaves for the one that continues it in the same client process. */
export interface HandOver {
  from: string;
  /** `clear` (SessionEnd reason) or `compact` (PreCompact). */
  reason: string;
  at: string;
  /** The capsule the ending session stands on (its autosave, its checkpoint, or the one it resumed). */
  carried?: string;
  /**
   * The ending session's transcript, so the next session can prove the resume covers its last
   * turn (lib/hooks/fold-cleared.ts): an autosave still running in the background, or killed,
   * has not folded it yet.
   */
  transcript?: string;
}

/** One client process's record: its live session, the sessions before it, a pending hand-over. */
export interface LineageRecord {
  format: 1;
  host: string;
  key: string;
  pid?: number;
  processStart?: string;
  /** The session this client process runs now. */
  session?: string;
  /** Earlier sessions of this lineage, oldest first. */
  chain: string[];
  handOver?: HandOver;
  /** The capsule the lineage stands on, for a session that resumed and then saved nothing. */
  carried?: string;
  updatedAt: string;
}

/** The lineage a new session continues: every earlier session of its client process and the capsule it stands on. */
export interface Lineage {
  host: string;
  key: string;
  /** Earlier sessions, oldest first; the last is the one that just ended. */
  sessions: string[];
  /** How the last one ended (`clear`, `compact`), or `process` when no hand-over was left (the same client process ran it). */
  reason: string;
  carried?: string;
}

/** The record file of a signal. */
export function lineageRecordPath(runtimeDir: string, signal: LineageSignal): string {
  return join(runtimeDir, LINEAGE_DIR, `${signal.host}-${signal.key}.json`);
}

/** Reads a signal's record; null when absent, unreadable, of another shape, or of an earlier process with the same pid. */
export function readLineageRecord(runtimeDir: string, signal: LineageSignal): LineageRecord | null {
  const record = readRecordFile(lineageRecordPath(runtimeDir, signal));
  if (record === null) return null;
  if (signal.processStart !== undefined && record.processStart !== undefined && record.processStart !== signal.processStart) return null;
  return record;
}

/**
 * Notes the session a client process runs now (SessionStart startup/resume, and any hook of a
 * session the record does not know yet). `fresh` starts a new lineage: a new client process,
 * or `--resume` of another session. Writes only when something changed. Never throws for a
 * missing signal; throws on an unwritable runtime dir (callers log and go on).
 */
export function recordLiveSession(runtimeDir: string, signal: LineageSignal | null, sessionId: string, now: Date, opts: { fresh: boolean }): void {
  if (!isUsableSignal(signal)) return;
  const old = readLineageRecord(runtimeDir, signal);
  if (old !== null && old.session === sessionId) return;
  const chain = opts.fresh || old === null ? [] : old.chain;
  writeRecord(runtimeDir, signal, { ...base(signal, now), chain, ...(opts.fresh ? {} : pick(old)), session: sessionId });
}

/**
 * Leaves the hand-over of an ending session (SessionEnd with reason `clear`, PreCompact) for
 * the session its client process starts next. The ending session becomes the live one if the
 * record did not know it.
 */
export function recordHandOver(runtimeDir: string, signal: LineageSignal | null, handOver: Omit<HandOver, 'at'>, now: Date): void {
  if (!isUsableSignal(signal)) return;
  const old = readLineageRecord(runtimeDir, signal);
  const carried = handOver.carried ?? old?.carried;
  writeRecord(runtimeDir, signal, {
    ...base(signal, now),
    chain: old?.chain ?? [],
    session: handOver.from,
    handOver: { ...handOver, at: now.toISOString(), ...(carried === undefined ? {} : { carried }) },
    ...(carried === undefined ? {} : { carried }),
  });
}

/**
 * The lineage of a session that starts after a /clear or a compaction (SessionStart clear or
 * compact), from the host's own signal: the hand-over the ending session left, while fresh
 * (HANDOVER_MAX_AGE_MS); else the session the same client process ran before, when the
 * process is proven the same (its start time matches: a pid the kernel handed out again never
 * passes). Records the new session as the live one with the chain extended. Taking it again for
 * the same session returns the same lineage (two registrations of one hook run at once). Null
 * without a signal, a record, or a provable predecessor; a record past its lifetime is ignored.
 */
export function takeLineage(runtimeDir: string, signal: LineageSignal | null, sessionId: string, now: Date): Lineage | null {
  if (!isUsableSignal(signal)) return null;
  const old = readLineageRecord(runtimeDir, signal);
  if (old === null || !(now.getTime() - Date.parse(old.updatedAt) <= LINEAGE_RECORD_MAX_AGE_MS)) return null;
  if (old.session === sessionId && old.handOver === undefined) {
    return old.chain.length === 0 ? null : { host: signal.host, key: signal.key, sessions: old.chain, reason: 'taken', ...carriedOf(old) };
  }
  const handOver = old.handOver !== undefined && now.getTime() - Date.parse(old.handOver.at) <= HANDOVER_MAX_AGE_MS ? old.handOver : null;
  const sameProcess = signal.processStart !== undefined && old.processStart === signal.processStart;
  const from = handOver?.from ?? (sameProcess ? old.session : undefined);
  if (from === undefined) return null;
  const sessions = [...old.chain.filter((s) => s !== from), from].slice(-LINEAGE_CHAIN_MAX);
  const carried = handOver?.carried ?? old.carried;
  writeRecord(runtimeDir, signal, { ...base(signal, now), chain: sessions, session: sessionId, ...(carried === undefined ? {} : { carried }) });
  return { host: signal.host, key: signal.key, sessions, reason: handOver?.reason ?? 'process', ...(carried === undefined ? {} : { carried }) };
}

/**
 * The lineage of the session a client process runs now, for a verb the agent runs inside it
 * (`git capsule resume` from the Bash tool): its earlier sessions and itself. Reads only.
 */
export function readLineage(runtimeDir: string, signal: LineageSignal | null): Lineage | null {
  if (!isUsableSignal(signal)) return null;
  const record = readLineageRecord(runtimeDir, signal);
  if (record === null || record.session === undefined) return null;
  const sessions = [...record.chain.filter((s) => s !== record.session), record.session];
  return { host: signal.host, key: signal.key, sessions, reason: 'current', ...carriedOf(record) };
}

/** Notes the capsule a lineage now stands on (the one its session just resumed). */
export function noteCarried(runtimeDir: string, signal: LineageSignal | null, capsuleId: string, now: Date): void {
  if (!isUsableSignal(signal)) return;
  const old = readLineageRecord(runtimeDir, signal);
  if (old === null || old.carried === capsuleId) return;
  writeRecord(runtimeDir, signal, { ...old, updatedAt: now.toISOString(), carried: capsuleId });
}

/**
 * The sessions of other client processes on this machine that run now: records whose process
 * is alive (the same process, not a later one with its pid) and not older than the record
 * lifetime; `except` (the caller's own signal) is left out. Each such process's lineage counts
 * whole: the session it runs and the earlier ones it cleared or compacted (a capsule of theirs
 * left active, such as an autosave its next session passed over for an authored one, is still
 * that lineage's work). Their capsules are never resumed or consumed automatically by another
 * session.
 */
export function readLiveSessions(runtimeDir: string, except: LineageSignal | null, now: Date): string[] {
  const live: string[] = [];
  for (const { record } of listRecords(runtimeDir)) {
    if (except && record.host === except.host && record.key === except.key) continue;
    if (record.session === undefined || now.getTime() - Date.parse(record.updatedAt) > LINEAGE_RECORD_MAX_AGE_MS) continue;
    if (record.pid !== undefined && !isProcessAlive(record.pid, record.processStart)) continue;
    live.push(...record.chain.filter((s) => s !== record.session), record.session);
  }
  return live;
}

/**
 * Removes the records of client processes that are gone (or whose pid a later process took):
 * only the process that wrote a record can take its hand-over, so such a record is never read
 * for anything again, yet every resume would read it (readLiveSessions). One record per client
 * process started in the record lifetime (14 days) would pile up; pruned at SessionEnd, the
 * folder holds the live processes and those ended since. Records without a pid are left to the
 * age-based prune. Returns how many were removed; never throws.
 */
export function pruneDeadLineages(runtimeDir: string): number {
  let removed = 0;
  for (const { path, record } of listRecords(runtimeDir)) {
    if (record.pid === undefined || isProcessAlive(record.pid, record.processStart)) continue;
    try {
      unlinkSync(path);
      removed += 1;
    } catch {
      // raced with another hook's prune
    }
  }
  return removed;
}

function listRecords(runtimeDir: string): Array<{ path: string; record: LineageRecord }> {
  const dir = join(runtimeDir, LINEAGE_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    const record = readRecordFile(path);
    return record === null ? [] : [{ path, record }];
  });
}

function base(signal: LineageSignal, now: Date): Pick<LineageRecord, 'format' | 'host' | 'key' | 'pid' | 'processStart' | 'updatedAt'> {
  return {
    format: 1,
    host: signal.host,
    key: signal.key,
    ...(signal.pid === undefined ? {} : { pid: signal.pid }),
    ...(signal.processStart === undefined ? {} : { processStart: signal.processStart }),
    updatedAt: now.toISOString(),
  };
}

function pick(old: LineageRecord | null): Partial<LineageRecord> {
  return old?.carried === undefined ? {} : { carried: old.carried };
}

function carriedOf(record: LineageRecord): { carried?: string } {
  return record.carried === undefined ? {} : { carried: record.carried };
}

function readRecordFile(path: string): LineageRecord | null {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LineageRecord>;
    if (value === null || typeof value !== 'object' || value.format !== 1 || !Array.isArray(value.chain) || typeof value.updatedAt !== 'string') return null;
    if (!value.chain.every((s) => typeof s === 'string')) return null;
    return value as LineageRecord;
  } catch {
    return null;
  }
}

/** Through the runtime state's private writer: atomic (a hook killed mid-write leaves the previous record, never half of one), 0600, never through a link. */
function writeRecord(runtimeDir: string, signal: LineageSignal, record: LineageRecord): void {
  writePrivateFile(lineageRecordPath(runtimeDir, signal), `${JSON.stringify(record)}\n`);
}

