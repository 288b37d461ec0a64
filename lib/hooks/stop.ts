import { redactHostText } from '../hosts/redact-records';
import { planBudgetOnStop, type StopBudgetPlan } from '../budget-runtime/budget-hooks';
import { foldAutosave } from './autosave';
import type { HookDeps } from './hook-deps';
import { readHookGitConfig } from './hook-git-config';
import { lazyStore } from './lazy-store';
import type { HookSpec } from './run-hook';
import { noteLiveSession } from './hand-over';
import { awaitAutosave } from './await-autosave';
import { markFold } from './mark-fold';
import { thisProcessStamp } from '../local-state/prompt-journal';

/**
 * Stop: the rolling autosave. Folds the turn into this session's autosave capsule and commits
 * it when it changed; silent on success. Then the budget: at the hard point, once per context
 * window and never while `stop_hook_active`, a block asking for the capsule and a /clear.
 * The budget is read and decided while git makes the autosave's commit (the hook's one wait:
 * 2 ms of reads off a ~120 ms hook), but kept only after the commit succeeded, so a failed
 * autosave (the runner fails open) leaves the window's block for the next Stop instead of
 * spending it on output that is never printed.
 */
export function makeStopHook(deps: HookDeps): HookSpec<'Stop'> {
  return {
    event: 'Stop',
    redact: redactHostText,
    handle: async (input, ctx) => {
      if (!input.session_id) return;
      const signal = ctx.host.lineageSignal(ctx.env);
      noteLiveSession(ctx, signal, input.session_id, false);
      // Where a host runs Stop in the background (Claude Code: `asyncRewake`), the next turn's
      // Stop can start while this session's last one still commits. Folding the same turn at once
      // would race for the same commit (and fast-import's identical pack), so it waits for that one first.
      await awaitAutosave(ctx, { sessionId: input.session_id });
      // Visible while it folds and commits: the hooks that read or consume the branch wait for it
      // (await-autosave.ts). Removed only after the cursor is saved; a killed run's is stale.
      const unmark = markFold(ctx, input.session_id, signal);
      const gitConfig = await readHookGitConfig(ctx);
      let budget: StopBudgetPlan | undefined;
      const planBudget = () => (budget ??= planBudgetOnStop(input, { ...ctx, gitConfig }));
      const store = lazyStore(deps, ctx);
      try {
        await foldAutosave(
          store,
          // In the background the next turn's prompt may be journaled already: not this turn's.
          { sessionId: input.session_id, transcriptPath: input.transcript_path, lastAssistantMessage: input.last_assistant_message, backgroundTasks: input.background_tasks, whileCommitting: () => void planBudget(), promptsUpTo: thisProcessStamp() },
          ctx,
          deps,
        );
      } finally {
        // Not awaited: cat-file exits by itself once its input is closed (lazy-store.ts).
        store.release();
        unmark();
      }
      return planBudget().apply();
    },
  };
}
