import type { HookEventName, HostEventSpec, HostEvents } from '../host';

/**
 * The events Claude Code runs for git-capsule, with the timeout written in hooks/hooks.json
 * (seconds) and the runner's own budget (ms), kept well below it.
 */
export const HOOK_EVENTS = {
  SessionStart: { file: 'session-start', hostTimeoutSec: 10, budgetMs: 7000 },
  // Off the turn's critical path: a killed background run loses nothing (the cursor moves only
  // after the commit), the readers wait for one in flight (lib/hooks/await-autosave.ts), and
  // SessionStart(clear) folds a last turn it has not reached yet (lib/hooks/fold-cleared.ts).
  // `asyncRewake`, not `async`: a background hook's decision is ignored, but its exit 2 wakes
  // the model, which is the budget block's one way through.
  Stop: { file: 'stop', hostTimeoutSec: 10, budgetMs: 7000, asyncRewake: true },
  PreCompact: { file: 'pre-compact', hostTimeoutSec: 10, budgetMs: 7000 },
  PostCompact: { file: 'post-compact', hostTimeoutSec: 10, budgetMs: 7000 },
  UserPromptSubmit: { file: 'user-prompt-submit', hostTimeoutSec: 5, budgetMs: 3000 },
  // The host cuts SessionEnd short (CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS); the last autosave must land in ~1 s.
  SessionEnd: { file: 'session-end', hostTimeoutSec: 2, budgetMs: 1000 },
} as const satisfies { readonly [E in HookEventName]: HostEventSpec } & HostEvents;
