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
/** How a follow-up of the current task is kept in Operating-Facts. */
export const FOLLOW_UP = 'follow-up of the current task: ';
// Earlier autosaves' fallbacks: never a stated step.
const LEGACY_FALLBACKS = ['No next action was captured', 'Continue the last open task captured by autosave'];

/** The three contract fields as the autosave tracks them, and the evidence quoted beside them. */
export interface ContractFields {
  objective: string;
  waiting_on: string;
  next_valid_action: string;
  /** The current task as the user first stated it (their words, redacted, bounded). */
  task_as_stated?: string;
  /** The user's latest request, whatever it was. */
  latest_request?: string;
  /** The agent's final message of the last turn. */
  final_message?: string;
  /** The client's own compaction summary, when it wrote one. */
  compact_summary?: string;
}

/** The evidence fields: quoted beside the labels, never labels themselves (docs/format.md). */
export const EVIDENCE_FIELDS = ['task_as_stated', 'latest_request', 'final_message', 'compact_summary'] as const;

/** What folding events into the contract fields also puts into the body. */
export interface ContractOutcome {
  fields: ContractFields;
  /** Finished objectives (`task: …`), for Done. */
  done: string[];
  /** Objectives set aside unfinished, follow-ups of the current task, for Operating-Facts. */
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
      case 'user-request': {
        // A supervisor's message (its continuation, its capsule request) is harness text, not the
        // user: neither an objective nor an answer (the content gate would refuse it anyway).
        if (checkContentGate({ objective: text }).length > 0) break;
        const answering = f.waiting_on.startsWith(ANSWER);
        if (answering) f.waiting_on = UNKNOWN_WAITING_ON; // the user spoke: the question is answered
        f.latest_request = e.quote ?? text;
        if (e.placeholder === true) break; // a stand-in is never the objective
        const none = isUnknown(f.objective) || f.objective.startsWith(QUESTION_OBJECTIVE);
        // The first request of a session is its task, in any language: quoted as stated.
        if (e.intent === 'task' || (e.unread === true && none)) {
          if (none || switches(e, f, answering)) {
            if (text !== f.objective) {
              setAside(f.objective, e.previousDone === true, out);
              f.objective = text;
              f.task_as_stated = e.quote ?? text;
              f.next_valid_action = NO_NEXT_STEP;
              f.waiting_on = UNKNOWN_WAITING_ON;
            }
          } else if (text !== f.objective) out.facts.push(`${FOLLOW_UP}${text}`);
        } else if (e.intent === 'question' && none) f.objective = `${QUESTION_OBJECTIVE}"${text}"`;
        // A later request the words do not read (another language, an agreement with terms in
        // it: "Sure, 2 MB is fine") is no switch: it attaches to the current task, as written.
        else if (e.unread === true && text !== f.objective) out.facts.push(`${FOLLOW_UP}${text}`);
        break;
      }
      case 'final-message':
        f.final_message = e.quote ?? text;
        break;
      case 'compact-summary':
        f.compact_summary = e.quote ?? text;
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
  if (!isStated(f.next_valid_action)) f.next_valid_action = openTask !== undefined ? `${OPEN_TASK}${openTask}` : NO_NEXT_STEP;
  return out;
}

/**
 * Whether a request for work replaces the current task (the task model): only on a clear signal,
 * an explicit switch ("New task: …"), or a request for other work after the agent reported the
 * current one finished. An answer to the agent's question, an agreement, a correction, a
 * reference back, or a request about what the task or the last message already names is a
 * follow-up of the current task, never a new one.
 */
function switches(e: AutosaveEvent, f: ContractFields, answering: boolean): boolean {
  if (e.switchTask === true) return true;
  if (answering || e.followUp === true || e.previousDone !== true) return false;
  return !namesCurrentWork(e.text, `${f.objective} ${f.final_message ?? ''}`);
}

// Words too common to tie a request to the current work.
const COMMON = new Set('the and for with from into that this then than them they their there what when where which while your have will would should could about after before also just only some more most make sure please file files code test tests'.split(' '));

/** True when a short request's every content word is already in the current task or the last message ("Fix the script." after a message about the script). */
function namesCurrentWork(request: string, current: string): boolean {
  // The verb that opens the request is new by nature: the things it names are what must be known.
  const [, ...rest] = request.toLowerCase().split(/[^\p{L}\p{N}_.-]+/u).filter((w) => w !== '');
  const words = rest.map((w) => w.replace(/^[.-]+|[.-]+$/g, '')).filter((w) => w.length >= 4 && !COMMON.has(w));
  if (words.length === 0 || words.length > 6) return false;
  const here = current.toLowerCase();
  return words.every((w) => here.includes(w));
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
