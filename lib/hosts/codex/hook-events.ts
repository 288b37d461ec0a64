import type { HookEventName, HostEventSpec } from '../host';

/**
 * The events the Codex CLI runs for git-capsule, with the timeout written in
 * hooks/codex-hooks.json and `.codex/hooks.json` (seconds) and the runner's own budget (ms),
 * kept well below it. Codex clamps a SessionEnd timeout above 3 s to 3 s (codex-harness
 * README §5), so SessionEnd registers 3 and stops at 2.
 */
export const CODEX_HOOK_EVENTS = {
  SessionStart: { file: 'session-start', hostTimeoutSec: 10, budgetMs: 7000 },
  Stop: { file: 'stop', hostTimeoutSec: 10, budgetMs: 7000 },
  PreCompact: { file: 'pre-compact', hostTimeoutSec: 10, budgetMs: 7000 },
  UserPromptSubmit: { file: 'user-prompt-submit', hostTimeoutSec: 5, budgetMs: 3000 },
  SessionEnd: { file: 'session-end', hostTimeoutSec: 3, budgetMs: 2000 },
} as const satisfies { readonly [E in HookEventName]: HostEventSpec };
