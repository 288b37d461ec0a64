/**
 * What a handler answers, in the core's words; every part optional, nothing at all means "say
 * nothing". A host adapter renders it into that host's envelope for the event (and drops what
 * the event cannot carry rather than printing something the host would misread or reject).
 */
export interface HookAnswer {
  /** Context for the model (SessionStart, UserPromptSubmit). */
  additionalContext?: string;
  /** One line shown to the user. */
  systemMessage?: string;
  /** A line for the compaction summary (PreCompact): Claude Code appends plain stdout to the summary prompt. */
  plainText?: string;
  /** A deliberate block (Stop only; the budget's hard point). */
  block?: { reason: string };
}
