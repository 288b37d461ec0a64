import { checkContentGate } from '../capsule/content-gate';
import type { AutosaveEvent } from './autosave-merge';

/** Explicit unknown markers: an autosave never writes null or an empty string for what it cannot know. */
export const UNKNOWN_OBJECTIVE = 'unknown (autosave could not determine the objective)';
export const UNKNOWN_WAITING_ON = 'unknown (autosave could not determine what this waits on)';
/** The next action when the session stated none: plain, and never a user's words dressed up as a plan. */
export const NO_NEXT_STEP = 'No next step captured: the session stated none since its objective was set; confirm the objective with the user before acting';
const NONE_CAPTURED = 'No next step captured';

const OPEN_TASK = 'Continue the open task: ';
const QUESTION_OBJECTIVE = "Answer the user's question: ";
const ANSWER = "The user's answer to: ";
const BACKGROUND = 'Background task ';
// Earlier autosaves' fallbacks: never a stated step.
const LEGACY_FALLBACKS = ['No next action was captured', 'Continue the last open task captured by autosave'];

/** The three contract fields as the autosave tracks them. */
export interface ContractFields {
  objective: string;
  waiting_on: string;
  next_valid_action: string;
}

/** What folding events into the contract fields also puts into the body. */
export interface ContractOutcome {
  fields: ContractFields;
  /** Finished objectives (`task: …`), for Done. */
  done: string[];
  /** Objectives set aside unfinished, for Operating-Facts. */
  facts: string[];
}

/**
 * Folds events into objective, waiting_on and next_valid_action, in event order (pure):
 * - a new task becomes the objective; the one before it moves to Done when its last turn
 *   reported something finished, else is noted as set aside; a question sets the objective
 *   only when there is none; a go-on or chat never does;
 * - the next action is the agent's stated step until a later turn does work without stating
 *   one; otherwise the last open task, else NO_NEXT_STEP;
 * - waiting_on is the closing question until the user answers, a running background task until
 *   the host reports none, a CI wait until a new task, else the unknown marker.
 */
export function foldContract(previous: ContractFields, events: readonly AutosaveEvent[], openTask: string | undefined): ContractOutcome {
  const f: ContractFields = { ...previous };
  const out: ContractOutcome = { fields: f, done: [], facts: [] };
  for (const e of events) {
    const text = e.text.trim();
    if (text === '' && e.kind !== 'progress' && e.kind !== 'waiting-cleared') continue;
    switch (e.kind) {
      case 'user-request':
        // A supervisor's message (its continuation, its capsule request) is harness text, not the
        // user: neither an objective nor an answer (the content gate would refuse it anyway).
        if (checkContentGate({ objective: text }).length > 0) break;
        if (f.waiting_on.startsWith(ANSWER)) f.waiting_on = UNKNOWN_WAITING_ON; // the user spoke: the question is answered
        if (e.intent === 'task' && text !== f.objective) {
          setAside(f.objective, e.previousDone === true, out);
          f.objective = text;
          f.next_valid_action = NO_NEXT_STEP;
          f.waiting_on = UNKNOWN_WAITING_ON;
        } else if (e.intent === 'question' && isUnknown(f.objective)) f.objective = `${QUESTION_OBJECTIVE}"${text}"`;
        break;
      case 'next-step':
        f.next_valid_action = text;
        break;
      case 'progress':
        if (isStated(f.next_valid_action)) f.next_valid_action = NO_NEXT_STEP;
        break;
      case 'question':
        f.waiting_on = `${ANSWER}"${text}"`;
        break;
      case 'waiting':
        // A question the turn closes with outranks a wait it mentions on the way.
        if (!f.waiting_on.startsWith(ANSWER) || e.source === 'summary') f.waiting_on = e.source === 'background' ? `${BACKGROUND}${text}` : text;
        break;
      case 'waiting-cleared':
        if (e.source === 'background' && f.waiting_on.startsWith(BACKGROUND)) f.waiting_on = UNKNOWN_WAITING_ON;
        break;
      case 'summary-field':
        if (e.field === 'objective') f.objective = text;
        else if (e.field === 'next_valid_action') f.next_valid_action = text;
        else if (e.field === 'waiting_on') f.waiting_on = text;
        break;
      default:
        break;
    }
  }
  if (!isStated(f.next_valid_action)) f.next_valid_action = openTask !== undefined ? `${OPEN_TASK}"${openTask}"` : NO_NEXT_STEP;
  return out;
}

/** True for a value the autosave does not know. */
export function isUnknown(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '' || value.startsWith('unknown (');
}

/** True for a next action the session stated (or a capsule carried), not one of the autosave's fallbacks. */
export function isStated(next: string): boolean {
  return next.trim() !== '' && !next.startsWith(NONE_CAPTURED) && !next.startsWith(OPEN_TASK) && !LEGACY_FALLBACKS.some((p) => next.startsWith(p));
}

function setAside(objective: string, finished: boolean, out: ContractOutcome): void {
  if (isUnknown(objective) || objective.startsWith(QUESTION_OBJECTIVE)) return;
  if (finished) out.done.push(`task: ${objective}`);
  else out.facts.push(`set aside unfinished: ${objective}`);
}
