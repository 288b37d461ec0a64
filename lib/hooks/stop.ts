import { redactHostText } from '../hosts/redact-records';
import { budgetOnStop } from '../budget-runtime/budget-hooks';
import { foldAutosave } from './autosave';
import type { HookDeps } from './hook-deps';
import { readHookGitConfig } from './hook-git-config';
import { lazyStore } from './lazy-store';
import type { HookSpec } from './run-hook';
import { noteLiveSession } from './hand-over';

/**
 * Stop: the rolling autosave. Folds the turn into this session's autosave capsule and commits
 * it when it changed; silent on success. Then the budget: at the hard point, once per context
 * window and never while `stop_hook_active`, a block asking for the capsule and a /clear.
 * The budget runs after the autosave, so a failed autosave (the runner fails open) leaves the
 * window's block for the next Stop instead of spending it on output that is never printed.
 */
export function makeStopHook(deps: HookDeps): HookSpec<'Stop'> {
  return {
    event: 'Stop',
    redact: redactHostText,
    handle: async (input, ctx) => {
      if (!input.session_id) return;
      noteLiveSession(ctx, ctx.host.lineageSignal(ctx.env), input.session_id, false);
      const store = lazyStore(deps, ctx);
      let closing: Promise<void> = Promise.resolve();
      try {
        await foldAutosave(
          store,
          { sessionId: input.session_id, transcriptPath: input.transcript_path, lastAssistantMessage: input.last_assistant_message, backgroundTasks: input.background_tasks },
          ctx,
          deps,
        );
      } finally {
        // git winds down while the budget runs; a failure to close still fails the hook below
        // (the catch only keeps it from being unhandled when the fold's own error wins).
        closing = store.close();
        closing.catch(() => undefined);
      }
      const answer = budgetOnStop(input, { ...ctx, gitConfig: await readHookGitConfig(ctx) });
      await closing;
      return answer;
    },
  };
}

