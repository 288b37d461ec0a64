import { redactHostText } from '../hosts/redact-records';
import { clearSessionCap } from '../local-state/budget-state';
import { foldAutosave } from './autosave';
import type { HookDeps } from './hook-deps';
import { lazyStore } from './lazy-store';
import { pruneLocalState } from '../local-state/state-files';
import type { HookSpec } from './run-hook';

/** SessionEnd: the last autosave, inside the host's short end-of-session budget (~1 s). */
export function makeSessionEndHook(deps: HookDeps): HookSpec<'SessionEnd'> {
  return {
    event: 'SessionEnd',
    redact: redactHostText,
    handle: async (input, ctx) => {
      if (!input.session_id) return;
      const store = lazyStore(deps, ctx);
      try {
        await foldAutosave(store, { sessionId: input.session_id, transcriptPath: input.transcript_path }, ctx, deps);
      } finally {
        await store.close();
        pruneLocalState(ctx.runtimeDir, ctx.now());
        clearSessionCap(ctx.runtimeDir, input.session_id); // seed 002: a session's cap ends with it
      }
    },
  };
}
