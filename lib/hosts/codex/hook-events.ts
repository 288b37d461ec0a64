import type { HostEvents } from '../host';

/**
 * The events the Codex CLI runs for git-capsule, with the timeout written in
 * hooks/codex-hooks.json and `.codex/hooks.json` (seconds) and the runner's own budget (ms),
 * kept well below it. Codex clamps a SessionEnd timeout above 3 s to 3 s (codex-harness
 * README §5), so SessionEnd registers 3 and stops at 1.5 (a hung git measured 2.7 s to exit
 * with a 2 s budget on a loaded machine: process start and exit come on top).
 */
export const CODEX_HOOK_EVENTS = {
  SessionStart: { file: 'session-start', hostTimeoutSec: 10, budgetMs: 7000 },
  Stop: { file: 'stop', hostTimeoutSec: 10, budgetMs: 7000 },
  PreCompact: { file: 'pre-compact', hostTimeoutSec: 10, budgetMs: 7000 },
  UserPromptSubmit: { file: 'user-prompt-submit', hostTimeoutSec: 5, budgetMs: 3000 },
  SessionEnd: { file: 'session-end', hostTimeoutSec: 3, budgetMs: 1500 },
} as const satisfies HostEvents;
