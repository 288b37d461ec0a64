import { clearAutosaveInFlight, markAutosaveInFlight } from '../local-state/autosave-in-flight';
import type { LineageSignal } from '../local-state/lineage-signal';
import { lineageKey } from './await-autosave';
import type { HookContext } from './run-hook';

/**
 * Marks a fold of `sessionId` in flight (Stop, SessionEnd, PreCompact): with Stop in the
 * background, a late Stop of the same session, or the next session's SessionStart(clear), may
 * run beside it, and waits for a fold it can see instead of folding the same turn at once.
 * Returns what removes the mark, for the caller to run after its fold (nothing to remove when
 * the runtime dir was unwritable: logged, and the fold goes on unmarked).
 */
export function markFold(ctx: HookContext, sessionId: string, signal: LineageSignal | null): () => void {
  try {
    markAutosaveInFlight(ctx.runtimeDir, { sessionId, lineage: lineageKey(signal ?? ctx.host.lineageSignal(ctx.env)), at: ctx.now().toISOString() });
  } catch (err) {
    ctx.warn('SESSION_STATE_UNWRITABLE', err instanceof Error ? err.message : String(err));
    return () => undefined;
  }
  return () => clearAutosaveInFlight(ctx.runtimeDir, sessionId);
}
