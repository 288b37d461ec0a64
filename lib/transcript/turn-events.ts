import { readStatements } from './assistant-statements';
import { clipText, lastSentence, quoteText } from './work-event-text';
import { isUnreadText } from './unread-text';
import { readPrompt } from './prompt-intent';
import { isCorrection, isDecision } from './prompt-signals';
import type { WorkEvent } from './work-event-types';

/** The next action when the final message is in words the patterns do not read (docs/work-state.md). */
export const UNREAD_STEP = "Not read by the autosave (another language): see the agent's final message, quoted below; it ends: ";

// A request is quoted shorter than a final message: its start says what it asks.
const MAX_REQUEST_QUOTE = 800;

/** One turn being read: from a prompt (or a notification) to the next. */
export interface Turn {
  /** The last assistant text after the turn's last tool call: its final message so far. */
  finalText?: string;
  didWork: boolean;
}

/**
 * The end of a turn: what its final message says (done, the stated next step or, for a turn
 * that did work without one, progress; a wait; a closing question, last so it outranks the
 * wait). Returns whether it reported something finished.
 */
export function endOfTurn(turn: Turn, finalText: string | undefined, emit: (e: WorkEvent) => void): boolean {
  if (finalText === undefined || finalText.trim() === '') {
    if (turn.didWork) emit({ kind: 'progress', text: 'the turn did work without stating a next step' });
    return false;
  }
  // The message itself, quoted: a fresh agent reads it in any language; a label it cannot undo.
  emit({ kind: 'final-message', text: clipText(finalText), quote: quoteText(finalText) });
  const said = readStatements(finalText);
  for (const d of said.done) emit({ kind: 'done', text: `reported: ${d}` });
  if (said.nextStep !== undefined) emit({ kind: 'next-step', text: said.nextStep });
  // In words the patterns do not read, "no step found" is not "none stated": the label points at
  // the quoted message and gives its last sentence, where a plan is stated, as written.
  else if (turn.didWork && isUnreadText(finalText)) emit({ kind: 'next-step', text: clipText(`${UNREAD_STEP}${lastSentence(finalText)}`), unread: true });
  else if (turn.didWork) emit({ kind: 'progress', text: 'the turn did work without stating a next step' });
  if (said.waiting !== undefined && said.waiting !== said.question) emit({ kind: 'waiting', source: 'ci', text: said.waiting });
  if (said.question !== undefined) emit({ kind: 'question', text: said.question });
  return said.done.length > 0;
}

/**
 * A typed prompt: a user-request event with its intent (slash commands are left out: they manage
 * the session or expand into meta rows), and a correction or a decision when it reads as one.
 */
export function userRequest(text: string, previousDone: boolean, at: Pick<WorkEvent, 'uuid' | 'timestamp'>, emit: (e: WorkEvent) => void): void {
  // Slash commands manage the session (or expand into prompts the transcript holds as meta rows).
  if (text.trimStart().startsWith('/')) return;
  const read = readPrompt(text);
  const signals = { ...(read.switchTask ? { switchTask: true } : {}), ...(read.followUp ? { followUp: true } : {}), ...(read.placeholder ? { placeholder: true } : {}), ...(read.unread ? { unread: true } : {}) };
  emit({ kind: 'user-request', intent: read.intent, text: read.task ?? text, quote: quoteText(text, MAX_REQUEST_QUOTE), ...signals, ...(read.intent === 'task' ? { previousDone } : {}), ...at });
  if (isCorrection(text)) {
    // A correction is a rejected approach and the constraint it sets, on the current task.
    const [rejected, ...rest] = text.slice(0, 2000).split(/(?<=[.!?…;:])\s+|\s[—–]\s/).map((p) => p.trim()).filter((p) => p !== '');
    emit({ kind: 'rejected', text: `rejected by the user: ${rejected ?? text}`, ...at });
    if (rest.length > 0) emit({ kind: 'constraint', text: `from the user: ${rest.join(' ')}`, ...at });
  }
  else if (isDecision(text.slice(0, 2000))) emit({ kind: 'decision', text: `user: ${text}`, ...at });
}
