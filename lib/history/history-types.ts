/** Who an addressed history event speaks for; `--role` filters on it. */
export const HISTORY_ROLES = ['user', 'assistant', 'system', 'attachment', 'tool'] as const;
export type HistoryRole = (typeof HISTORY_ROLES)[number];

/** A tool call paired with its result (by tool_use_id); `pending` until a result is recorded. */
export interface HistoryToolCall {
  id: string;
  name: string;
  /** The call's input, summarised on one line. */
  input: string;
  status: 'pending' | 'ok' | 'error' | 'orphan-result';
  result?: string;
  /** The address the result was allocated; reading it redirects to the call. */
  resultSeq?: number;
  /** Byte offset of the result's line, when read from a file. */
  resultOffset?: number;
}

/** What a page needs of an event kept without its text (a streamed file): computed from the full text. */
export interface HistoryDigest {
  /** True when the body is only whitespace. */
  empty: boolean;
  /** Whether the body holds the projection's query (case-insensitive); undefined without one. */
  hit?: boolean;
}

/** One addressed event: a message, attachment or notice record, or a tool call. */
export interface HistoryEvent {
  seq: number;
  role: HistoryRole;
  /** The record the event came from (for a tool call, the assistant record holding the tool_use). */
  uuid: string;
  line: number;
  /** Byte offset of that record's line, when read from a file. */
  offset?: number;
  timestamp?: string;
  /** Visible text only: text blocks and rendered attachment text; '' when none was recorded. */
  text: string;
  /** Extra facts: `meta`, `compact-summary`, `compact-boundary`, `api-error`, the attachment or system subtype. */
  tags: string[];
  tool?: HistoryToolCall;
  /** Set when the text (and tool result) were not kept: they are '' until withText() gives them back. */
  digest?: HistoryDigest;
  /** `claude:<session>:<ordinal>` or `claude:<session>:unknown:<missingUuid>`; set by the projection. */
  window?: string;
}

/** A session's history on the selected branch, with the addresses of the whole file. */
export interface HistoryProjection {
  sessionId: string;
  leaf: string;
  /** Events on the selected branch, oldest first. */
  events: HistoryEvent[];
  /** Every allocated address, on the branch or not, and where result addresses redirect. */
  addresses: Map<number, HistoryEvent>;
  redirects: Map<number, number>;
  /** Ancestors the branch needs that the file does not hold (empty when the history is complete). */
  missing: string[];
  /** The line of the record whose parent link names the missing ancestor. */
  neededByLine?: number;
  /** Windows and unknown segments that hold events, numbered ones first by ordinal. */
  windows: string[];
  /** Lines over the line cap, read as stubs without their content (JSONL_LINE_TOO_LONG). */
  oversizeLines: number[];
  /** The query the event digests were computed for, when they were. */
  query?: string;
}
