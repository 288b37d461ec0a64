import type { OpenFailure } from './failure-pairing';
import type { PromptIntent } from './prompt-intent';

/** The kinds of work-state event the autosave folds into a capsule (docs/work-state.md "Signals"). */
export const WORK_EVENT_KINDS = [
  'file-read',
  'file-modified',
  'error',
  'resolution',
  'rejected',
  'task',
  'decision',
  'git',
  'user-request',
  'environment',
  // What the agent's final message of a turn says, and what the host reports at Stop.
  'done',
  'next-step',
  'progress',
  'question',
  'waiting',
  'waiting-cleared',
  // A field of the state block the compaction summariser was asked for (PostCompact).
  'summary-field',
  // The agent's final message of a turn, quoted whole (bounded) as evidence.
  'final-message',
  // The constraint a user's correction sets ("write a small helper").
  'constraint',
  // What a subagent reported back to the main session (the Agent tool's result).
  'finding',
  // The client's own compaction summary, quoted as evidence.
  'compact-summary',
] as const;
export type WorkEventKind = (typeof WORK_EVENT_KINDS)[number];

/** What a `waiting` event waits on. */
export type WaitingSource = 'background' | 'ci' | 'summary';

/**
 * One work-state transition read from the transcript. `text` is short (bounded, one line) and is
 * raw data: whoever renders it to the agent passes it through `inert()`.
 */
export interface WorkEvent {
  kind: WorkEventKind;
  text: string;
  /** The file concerned, for file-read and file-modified: repo-relative inside the project, `~/…` under the home folder. */
  path?: string;
  /** user-request: what the prompt asks for. */
  intent?: PromptIntent;
  /** user-request of a new task: whether the turn before it reported something finished. */
  previousDone?: boolean;
  /** user-request: an explicit switch to other work ("New task: …"). */
  switchTask?: boolean;
  /** user-request: builds on the current work (an agreement, a reference back, a correction). */
  followUp?: boolean;
  /** user-request: a stand-in prompt, never an objective. */
  placeholder?: boolean;
  /** user-request: a request the word patterns do not read (another language): quoted, not labelled; next-step: a pointer to the quoted final message, whose words were not read. */
  unread?: boolean;
  /** user-request, final-message, finding, compact-summary: the words themselves, redacted and bounded (MAX_QUOTE_CHARS), for the quoted evidence. */
  quote?: string;
  /** resolution: the text of the error it resolves (`text` says what resolved it). */
  resolves?: string;
  /** waiting, waiting-cleared: what the work waits on. */
  source?: WaitingSource;
  /** summary-field: which contract field the summariser's line fills. */
  field?: 'objective' | 'waiting_on' | 'next_valid_action';
  /** The uuid of the transcript record the event came from. */
  uuid?: string;
  timestamp?: string;
}

/** A background task as the host reports it at Stop (Claude Code's `background_tasks`). */
export interface BackgroundTask {
  description?: string;
  command?: string;
  status?: string;
}

/** What the extraction carries from one transcript delta to the next (kept in the session's runtime state). */
export interface WorkCarry {
  /** Failures not yet followed by the run that fixed them, the most recent last. */
  openFailures: OpenFailure[];
  /** Whether the last turn so far reported something finished (a new task then moves the old objective to Done). */
  lastTurnDone?: boolean;
  /** Fingerprints of prompts already read from the submit-time journal, so the transcript's copy is not read twice. */
  seenPrompts?: string[];
  /** The task tools' ids of this session mapped to their subjects (TaskCreate's result): TaskUpdate names only the id. */
  taskSubjects?: Record<string, string>;
}

/** Options for extractWorkEvents. */
export interface ExtractWorkEventsOptions {
  /** The Stop hook's `last_assistant_message`: the transcript file can lag behind it. */
  lastAssistantMessage?: string;
  /** The Stop hook's `background_tasks`: undefined when the event carries none (PreCompact, SessionEnd). */
  backgroundTasks?: readonly BackgroundTask[];
  /** Prompts recorded at submit time (UserPromptSubmit), oldest first: the transcript can lag behind them too. */
  submittedPrompts?: readonly string[];
  /** The project's top folder: file paths inside it are written relative to it. */
  projectRoot?: string;
  /** The user's home folder: file paths under it are written `~/…`, never with the user's name. */
  homeDir?: string;
  /** What the previous delta left (open failures, …). */
  carry?: Partial<WorkCarry>;
}

/** The events of one transcript delta and what to carry to the next. */
export interface WorkState {
  events: WorkEvent[];
  carry: WorkCarry;
}

/** How many open failures are carried from one delta to the next; older ones are forgotten. */
export const MAX_OPEN_FAILURES = 20;

/** How many prompt fingerprints are remembered. */
export const MAX_SEEN_PROMPTS = 8;

/** The longest `text` an event carries; longer values are cut with a trailing `…`. */
export const MAX_WORK_EVENT_TEXT = 240;

/** The longest quote an event carries (a final message keeps its start and its end, where the plan is). */
export const MAX_QUOTE_CHARS = 1200;

/** How many task ids the carry maps to subjects. */
export const MAX_TASK_SUBJECTS = 100;
