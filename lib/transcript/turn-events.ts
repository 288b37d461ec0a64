import { readStatements } from './assistant-statements';
import { readPrompt } from './prompt-intent';
import { isCorrection, isDecision } from './prompt-signals';
import type { WorkEvent } from './work-event-types';

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
  const said = readStatements(finalText);
  for (const d of said.done) emit({ kind: 'done', text: `reported: ${d}` });
  if (said.nextStep !== undefined) emit({ kind: 'next-step', text: said.nextStep });
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
  emit({ kind: 'user-request', intent: read.intent, text: read.task ?? text, ...(read.intent === 'task' ? { previousDone } : {}), ...at });
  if (isCorrection(text)) emit({ kind: 'rejected', text: `user correction: ${text}`, ...at });
  else if (isDecision(text.slice(0, 2000))) emit({ kind: 'decision', text: `user: ${text}`, ...at });
}
