import { redactHostText } from '../hosts/redact-records';
import { clearSessionCap } from '../local-state/budget-state';
import { foldAutosave } from './autosave';
import type { HookDeps } from './hook-deps';
import { lazyStore } from './lazy-store';
import { pruneLocalState } from '../local-state/state-files';
import { pruneDeadLineages } from '../local-state/lineage-record';
import { leaveHandOver } from './hand-over';
import type { HookSpec } from './run-hook';
import { awaitAutosave, SESSION_END_WAIT_MS } from './await-autosave';
import { markFold } from './mark-fold';

/**
 * SessionEnd: with reason `clear`, first the hand-over for the session the same client process
 * starts next (a few hundred microseconds: the host cuts this hook short and starts the next
 * session right away), then the last autosave, inside the host's short end-of-session budget (~1 s).
 */
export function makeSessionEndHook(deps: HookDeps): HookSpec<'SessionEnd'> {
  return {
    event: 'SessionEnd',
    redact: redactHostText,
    handle: async (input, ctx) => {
      if (!input.session_id) return;
      const signal = input.reason === 'clear' ? ctx.host.lineageSignal(ctx.env) : null;
      if (signal) leaveHandOver(ctx, signal, input.session_id, 'clear', undefined, input.transcript_path);
      // After the hand-over (the host starts the next session right away), before the fold: a
      // Stop of this session still committing must not be folded twice at once.
      await awaitAutosave(ctx, { sessionId: input.session_id }, SESSION_END_WAIT_MS);
      // Visible while it folds: the next session's SessionStart(clear), which the client may start
      // before this hook ends, waits for it instead of folding the same turn at once.
      const unmark = markFold(ctx, input.session_id, signal);
      const store = lazyStore(deps, ctx);
      try {
        const saved = await foldAutosave(store, { sessionId: input.session_id, transcriptPath: input.transcript_path }, ctx, deps);
        // This fold may have written the session's first autosave: the hand-over carries it.
        if (signal && saved?.commit) leaveHandOver(ctx, signal, input.session_id, 'clear', undefined, input.transcript_path);
      } finally {
        store.release(); // not awaited: the hook's process exits next (lazy-store.ts)
        unmark();
        pruneLocalState(ctx.runtimeDir, ctx.now());
        pruneDeadLineages(ctx.runtimeDir); // every resume reads the records: keep only live clients'
        clearSessionCap(ctx.runtimeDir, input.session_id); // a runtime cap is the session's own: it ends with it
      }
    },
  };
}
