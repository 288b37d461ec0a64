/**
 * The host events git-capsule registers, with the host's timeout (seconds, as written in
 * hooks/hooks.json) and the runner's own budget (ms), kept well below it so a slow git or a
 * stuck child never turns into a host-side kill: the runner answers first and fails open.
 */
export const HOOK_EVENTS = {
  SessionStart: { file: 'session-start', hostTimeoutSec: 10, budgetMs: 7000 },
  Stop: { file: 'stop', hostTimeoutSec: 10, budgetMs: 7000 },
  PreCompact: { file: 'pre-compact', hostTimeoutSec: 10, budgetMs: 7000 },
  PostCompact: { file: 'post-compact', hostTimeoutSec: 10, budgetMs: 7000 },
  UserPromptSubmit: { file: 'user-prompt-submit', hostTimeoutSec: 5, budgetMs: 3000 },
  // The host cuts SessionEnd short (CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS); the last autosave must land in ~1 s.
  SessionEnd: { file: 'session-end', hostTimeoutSec: 2, budgetMs: 1000 },
} as const;

/** One of the host event names git-capsule handles. */
export type HookEventName = keyof typeof HOOK_EVENTS;
