import type { HookAnswer } from '../hook-answer';
import type { HookEventName } from '../host';

const CONTEXT_EVENTS: ReadonlySet<HookEventName> = new Set(['SessionStart', 'UserPromptSubmit']);

/**
 * Renders an answer as Claude Code expects it on stdout: the JSON envelope, or plain text for
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
