import type { HostEvents } from '../host';

/**
 * The events the GitHub Copilot CLI runs for git-capsule, by the core's names, with the
 * timeout written into its registration (`timeoutSec`) and the runner's own budget (ms), kept
 * well below it. `hostEvent` is Copilot's own name for the event in `hooks/*.json`
 * (sessionStart, userPromptSubmitted, agentStop, preCompact, sessionEnd). No PostCompact:
 * nothing fires after a compaction, so the resume rides on the next userPromptSubmitted.
 */
export const COPILOT_HOOK_EVENTS = {
  SessionStart: { file: 'session-start', hostTimeoutSec: 10, budgetMs: 7000 },
  Stop: { file: 'stop', hostTimeoutSec: 10, budgetMs: 7000 },
  PreCompact: { file: 'pre-compact', hostTimeoutSec: 10, budgetMs: 7000 },
  UserPromptSubmit: { file: 'user-prompt-submit', hostTimeoutSec: 5, budgetMs: 3000 },
  SessionEnd: { file: 'session-end', hostTimeoutSec: 5, budgetMs: 3000 },
} as const satisfies HostEvents;

/** Copilot's name for each event it runs, as its hook files key them. */
export const COPILOT_EVENT_NAMES = {
  SessionStart: 'sessionStart',
  UserPromptSubmit: 'userPromptSubmitted',
  Stop: 'agentStop',
  PreCompact: 'preCompact',
  SessionEnd: 'sessionEnd',
} as const satisfies { [E in keyof typeof COPILOT_HOOK_EVENTS]: string };
