import type { HookAnswer } from '../hook-answer';
import type { HookEventName } from '../host';

/**
 * Renders an answer as the Copilot CLI reads a command hook's stdout: a top-level
 * `additionalContext` at sessionStart (a user message of its own in the next request) and at
 * userPromptSubmitted (inside the typed message, in `<system_reminder>` tags), and
 * `decision: "block"` with its `reason` at agentStop (the reason goes on as a user message).
 * Copilot has no field that shows a line to the user, so `systemMessage` goes nowhere: a
 * fail-open is in the error log only. Returns '' when nothing fits.
 */
export function renderCopilotOutput(event: HookEventName, answer: HookAnswer | void): string {
  if (!answer) return '';
  const out: Record<string, unknown> = {};
  if (answer.additionalContext && (event === 'SessionStart' || event === 'UserPromptSubmit')) out.additionalContext = answer.additionalContext;
  if (answer.block && event === 'Stop') {
    out.decision = 'block';
    out.reason = answer.block.reason;
  }
  return Object.keys(out).length === 0 ? '' : `${JSON.stringify(out)}\n`;
}
