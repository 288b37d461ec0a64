import { recordHandOver, recordLiveSession } from '../local-state/lineage-record';
import type { LineageSignal } from '../local-state/lineage-signal';
import { readSessionState } from '../local-state/session-state';
import type { HookContext } from './run-hook';

/**
 * Leaves the hand-over of an ending session (SessionEnd `clear`, PreCompact) under the host's
 * lineage signal: the session the same client process starts next resumes this one's work,
 * never another session's. It carries the capsule this session stands on (`carried`, else its
 * autosave, else the capsule it resumed), for a next session that finds nothing newer. Best
 * effort: a failure is logged and the hook goes on (the next session then falls back to the
 * client process's previous session, or to scoping). `transcript` (SessionEnd's) lets the next
 * session fold a last turn the ending session's autosave has not (lib/hooks/fold-cleared.ts).
 */
export function leaveHandOver(ctx: HookContext, signal: LineageSignal, sessionId: string, reason: 'clear' | 'compact', carried?: string, transcript?: unknown): void {
  try {
    const state = readSessionState(ctx.runtimeDir, sessionId);
    const stands = carried ?? state.autosaveId ?? state.parentCapsuleId;
    const path = typeof transcript === 'string' && transcript !== '' ? { transcript } : {};
    recordHandOver(ctx.runtimeDir, signal, { from: sessionId, reason, ...(stands === undefined ? {} : { carried: stands }), ...path }, ctx.now());
  } catch (err) {
    ctx.warn('LINEAGE_RECORD_UNWRITABLE', err instanceof Error ? err.message : String(err));
  }
}

/**
 * Notes the session this client process runs now under the host's signal: `fresh` (SessionStart
 * startup or resume) starts a new lineage; otherwise (Stop) it only fills in a session the record
 * did not know (the plugin enabled mid-session). One small read; a write only when it changed.
 * Best effort.
 */
export function noteLiveSession(ctx: HookContext, signal: LineageSignal | null, sessionId: string, fresh: boolean): void {
  try {
    recordLiveSession(ctx.runtimeDir, signal, sessionId, ctx.now(), { fresh });
  } catch (err) {
    ctx.warn('LINEAGE_RECORD_UNWRITABLE', err instanceof Error ? err.message : String(err));
  }
}
