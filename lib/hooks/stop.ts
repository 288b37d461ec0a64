import { foldAutosave } from './autosave';
import type { HookDeps } from './hook-deps';
import { lazyStore } from './lazy-store';
import type { HookSpec } from './run-hook';

/**
 * Stop: the rolling autosave. Folds the turn into this session's autosave capsule and commits
 * it when it changed; silent on success. (The budget's hard-point block is added here.)
 */
export function makeStopHook(deps: HookDeps): HookSpec<'Stop'> {
  return {
    event: 'Stop',
    handle: async (input, ctx) => {
      if (!input.session_id) return;
      const store = lazyStore(deps, ctx);
      try {
        await foldAutosave(store, { sessionId: input.session_id, transcriptPath: input.transcript_path, lastAssistantMessage: input.last_assistant_message }, ctx, deps);
      } finally {
        await store.close();
      }
    },
  };
}
