import { statSync } from 'node:fs';
import { clearAutosaveInFlight, markAutosaveInFlight } from '../local-state/autosave-in-flight';
import { HANDOVER_MAX_AGE_MS, readLineageRecord } from '../local-state/lineage-record';
import { isUsableSignal, type LineageSignal } from '../local-state/lineage-signal';
import { readSessionState } from '../local-state/session-state';
import { foldAutosave } from './autosave';
import { awaitAutosave, lineageKey } from './await-autosave';
import type { HookDeps } from './hook-deps';
import { lazyStore } from './lazy-store';
import type { HookContext } from './run-hook';

/** What the guard found: nothing to prove (no hand-over, no transcript), the autosave already at the transcript's end, or the turns it folded itself. */
export type ClearedFold = 'none' | 'covered' | 'folded' | 'failed';

/**
 * SessionStart(clear), before its resume reads the branch: proves the cleared session's autosave
 * covers that session's transcript to its end, and folds what it does not. The Stop of the last
 * turn runs in the background (hooks/hooks.json `asyncRewake`) and may not have started yet, or
 * its marker may not be written, when the /clear after it arrives (and the client may cancel it):
 * waiting for markers alone resumed the turn before the last one. Here the session's transcript
 * cursor (saved only after a fold committed) is compared with the transcript's size, from the
 * hand-over SessionEnd(clear) left; behind, it waits (bounded) for an autosave of that session in
 * flight, and if still behind folds the rest itself with Stop's own fold, under the same in-flight
 * marker, so a Stop starting late waits for it and then finds nothing left to fold. One file stat
 * and two small reads when covered. Never throws: a failure is logged and the resume goes on.
 */
export async function foldClearedSession(ctx: HookContext, deps: HookDeps, signal: LineageSignal | null, sessionId: string | undefined): Promise<ClearedFold> {
  try {
    const cleared = clearedSession(ctx, signal, sessionId);
    if (cleared === null) return 'none';
    if (covers(ctx, cleared)) return 'covered';
    await awaitAutosave(ctx, { sessionId: cleared.sessionId });
    if (covers(ctx, cleared)) return 'covered';
    markAutosaveInFlight(ctx.runtimeDir, { sessionId: cleared.sessionId, lineage: lineageKey(signal), at: ctx.now().toISOString() });
    const store = lazyStore(deps, ctx);
    try {
      await foldAutosave(store, { sessionId: cleared.sessionId, transcriptPath: cleared.transcript }, ctx, deps);
    } finally {
      store.release(); // not awaited: the resume opens its own store (lazy-store.ts)
      clearAutosaveInFlight(ctx.runtimeDir, cleared.sessionId);
    }
    return 'folded';
  } catch (err) {
    ctx.warn('CLEARED_FOLD_FAILED', err instanceof Error ? err.message : String(err));
    return 'failed';
  }
}

/**
 * The session the client process just cleared and its transcript: the fresh hand-over under its
 * signal (SessionEnd's transcript), else the session the same client process ran before (the
 * transcript its last fold read); null without either.
 */
function clearedSession(ctx: HookContext, signal: LineageSignal | null, sessionId: string | undefined): { sessionId: string; transcript: string } | null {
  if (!isUsableSignal(signal)) return null;
  const record = readLineageRecord(ctx.runtimeDir, signal);
  if (record === null) return null;
  const handOver = record.handOver !== undefined && ctx.now().getTime() - Date.parse(record.handOver.at) <= HANDOVER_MAX_AGE_MS ? record.handOver : undefined;
  const sameProcess = signal.processStart !== undefined && record.processStart === signal.processStart;
  const from = handOver?.from ?? (sameProcess ? record.session : undefined);
  if (from === undefined || from === sessionId) return null;
  const transcript = handOver?.from === from && handOver.transcript !== undefined ? handOver.transcript : readSessionState(ctx.runtimeDir, from).transcriptPath;
  return typeof transcript === 'string' && transcript !== '' ? { sessionId: from, transcript } : null;
}

/** Whether the session's saved cursor reaches the transcript's end (a missing transcript has nothing more to give). */
function covers(ctx: HookContext, cleared: { sessionId: string; transcript: string }): boolean {
  let size: number;
  try {
    size = statSync(cleared.transcript).size;
  } catch {
    return true;
  }
  const cursor = readSessionState(ctx.runtimeDir, cleared.sessionId).cursor;
  return cursor !== undefined && cursor.bytes >= size;
}
