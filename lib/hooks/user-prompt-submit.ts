import { budgetOnUserPromptSubmit } from '../budget-runtime/budget-hooks';
import { noteCodePath } from './code-path';
import { recordPrompt, thisProcessStamp } from '../local-state/prompt-journal';
import { takePendingContext } from '../local-state/pending-context';
import { isHostWrapped } from '../hosts/claude/user-prompt';
import type { HookSpec } from './run-hook';

/**
 * UserPromptSubmit: records the prompt for the next autosave (the transcript can lag behind
 * it), then the budget warning, once per context window, from the warning point (docs/hooks.md
 * "Budgets"). On a host that runs nothing after a compaction (Copilot), it first injects the
 * resume the PreCompact left for this session, once. It must stay cheap: no yaml, no ajv, no
 * store, no git process (the margins from git config
 * come from the snapshot the last SessionStart or Stop took); the record is one small file.
 */
export const userPromptSubmitHook: HookSpec<'UserPromptSubmit'> = {
  event: 'UserPromptSubmit',
  handle: async (input, ctx) => {
    // A cache written by a run that failed open holds none of this path (lib/hooks/code-path.ts).
    noteCodePath('prompt');
    // A background Stop's block wakes the model with a host-wrapped text: no prompt of the user's.
    if (input.session_id && !isHostWrapped(input.prompt)) {
      try {
        recordPrompt(ctx.runtimeDir, input.session_id, input.prompt, thisProcessStamp());
      } catch (err) {
        // The warning below matters more than the record: log and go on.
        ctx.warn('SESSION_STATE_UNWRITABLE', err instanceof Error ? err.message : String(err));
      }
    }
    const pending = ctx.host.resumeAfterCompact === 'next-prompt' && input.session_id ? takePending(ctx.runtimeDir, input.session_id, ctx) : null;
    const budget = budgetOnUserPromptSubmit(input, ctx);
    if (pending === null) return budget;
    return { additionalContext: budget ? `${pending}\n\n${budget.additionalContext}` : pending };
  },
};

function takePending(runtimeDir: string, sessionId: string, ctx: { warn: (code: 'SESSION_STATE_UNWRITABLE', message: string) => void }): string | null {
  try {
    return takePendingContext(runtimeDir, sessionId);
  } catch (err) {
    ctx.warn('SESSION_STATE_UNWRITABLE', err instanceof Error ? err.message : String(err));
    return null;
  }
}
