import type { HookAnswer } from '../hook-answer';
import type { HookEventName } from '../host';

/**
 * What each event's output schema (codex-harness `schemas/*.output.json`, all
 * `additionalProperties: false`) lets git-capsule say. SessionEnd has no output schema, so
 * nothing is printed there; PreCompact's plain stdout is ignored by Codex (the compaction
 * prompt cannot be reached), so its line is dropped and SessionStart(compact) re-injects.
 */
const CAN: { readonly [E in HookEventName]: { context: boolean; block: boolean; message: boolean } } = {
  SessionStart: { context: true, block: false, message: true },
  UserPromptSubmit: { context: true, block: false, message: true },
  Stop: { context: false, block: true, message: true },
  PreCompact: { context: false, block: false, message: true },
  PostCompact: { context: false, block: false, message: true },
  SessionEnd: { context: false, block: false, message: false },
};

/**
 * Renders an answer in the Codex envelope for the event, with only the fields that event's
 * schema has: one unknown field and Codex fails the hook and drops its context, silently in
 * `codex exec` (docs/hosts.md "The seam"). Returns '' when nothing fits.
 */
export function renderCodexOutput(event: HookEventName, answer: HookAnswer | void): string {
  if (!answer) return '';
  const can = CAN[event];
  const envelope: Record<string, unknown> = {};
  if (answer.additionalContext && can.context) envelope.hookSpecificOutput = { hookEventName: event, additionalContext: answer.additionalContext };
  if (answer.block && can.block) {
    envelope.decision = 'block';
    envelope.reason = answer.block.reason;
  }
  if (answer.systemMessage && can.message) envelope.systemMessage = answer.systemMessage;
  return Object.keys(envelope).length === 0 ? '' : `${JSON.stringify(envelope)}\n`;
}
