import type { HookEventName } from './hook-events';

/** What a handler answers; every part optional, nothing at all means "say nothing". */
export interface HookAnswer {
  /** Context for the model (SessionStart, UserPromptSubmit): `hookSpecificOutput.additionalContext`. */
  additionalContext?: string;
  /** One line shown to the user. */
  systemMessage?: string;
  /** Plain stdout (PreCompact: the host appends it to the compaction prompt). */
  plainText?: string;
  /** A deliberate block (Stop only; the budget's hard point). */
  block?: { reason: string };
}

const CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set(['SessionStart', 'UserPromptSubmit']);

/**
 * Renders an answer as the host expects it on stdout: the JSON envelope, or plain text for
 * PreCompact, or nothing. Context on an event that cannot carry it is dropped rather than
 * printed somewhere the host would misread.
 */
export function renderHookOutput(event: HookEventName, answer: HookAnswer | void): string {
  if (!answer) return '';
  if (answer.plainText !== undefined && event === 'PreCompact' && !answer.systemMessage) return `${answer.plainText}\n`;
  const envelope: Record<string, unknown> = {};
  if (answer.additionalContext && CONTEXT_EVENTS.has(event)) {
    envelope.hookSpecificOutput = { hookEventName: event, additionalContext: answer.additionalContext };
  }
  if (answer.block && event === 'Stop') {
    envelope.decision = 'block';
    envelope.reason = answer.block.reason;
  }
  if (answer.systemMessage) envelope.systemMessage = answer.systemMessage;
  return Object.keys(envelope).length === 0 ? '' : `${JSON.stringify(envelope)}\n`;
}
