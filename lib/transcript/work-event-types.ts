/** The kinds of work-state event the autosave folds into a capsule (seed 003, issue 5 item 4). */
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
] as const;
export type WorkEventKind = (typeof WORK_EVENT_KINDS)[number];

/**
 * One work-state transition read from the transcript. `text` is short (bounded, one line) and is
 * raw data: whoever renders it to the agent passes it through `inert()`.
 */
export interface WorkEvent {
  kind: WorkEventKind;
  text: string;
  /** The file concerned, for file-read and file-modified (absolute as the tool recorded it). */
  path?: string;
  /** The uuid of the transcript record the event came from. */
  uuid?: string;
  timestamp?: string;
}

/** Options for extractWorkEvents. */
export interface ExtractWorkEventsOptions {
  /** The Stop hook's `last_assistant_message`: the transcript file can lag behind it. */
  lastAssistantMessage?: string;
  /**
   * Failures still open from earlier transcript deltas (call signature → first lines of its
   * output), so a command that failed in one turn and succeeds in a later one is paired.
   */
  openFailures?: Readonly<Record<string, string>>;
}

/** The events of one transcript delta and the failures still open after it. */
export interface WorkState {
  events: WorkEvent[];
  /** Bounded to the MAX_OPEN_FAILURES most recent; pass it as `openFailures` with the next delta. */
  openFailures: Record<string, string>;
}

/** How many open failures are carried from one delta to the next; older ones are forgotten. */
export const MAX_OPEN_FAILURES = 20;

/** The longest `text` an event carries; longer values are cut with a trailing `…`. */
export const MAX_WORK_EVENT_TEXT = 240;
