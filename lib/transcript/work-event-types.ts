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
}

/** The longest `text` an event carries; longer values are cut with a trailing `…`. */
export const MAX_WORK_EVENT_TEXT = 240;
