import type { RawTranscriptRecord } from '../../transcript/records';

// Record types extractWorkState (work-events.ts) reads beyond where a record was: the messages
// (prompts, text, tool calls and their results) and the one attachment it folds.
const READ_WHOLE: ReadonlySet<string> = new Set(['user', 'assistant']);
// A tool result's structured copy, which the reader never reads (it reads the message's
// tool_result): for a Write it holds the whole file written, for an Edit the whole file before it.
const UNREAD_RESULT = 'toolUseResult';
const READ_ATTACHMENT = 'environment';
// What it reads from every other main-chain record: the branch (a change is a git event) and
// the record's uuid and time, which that event carries.
const WHERE_KEYS = ['type', 'isSidechain', 'gitBranch', 'uuid', 'timestamp'] as const;

/**
 * The part of a Claude Code transcript record that extractWorkState reads: messages (but a tool
 * result's structured copy) and the environment attachment whole, only the branch, uuid and
 * time of every other record, nothing of a sidechain record (it is skipped). Claude Code 2.1 writes most of a turn's bytes into
 * records the reader never reads (api-request-shape, prompt_snapshot, skill_listing…: 418 of the
 * 460 KB of claude-harness's transcript-sample.jsonl), and the autosave redacts every record
 * before extraction: viewed first, those bytes are not redacted for nothing. The extraction
 * over views equals the extraction over whole records (test/hosts/claude/record-view.test.ts).
 *
 * @example redactRecords(records.map((r) => ({ line: r.line, data: claudeRecordView(r.data) })))
 */
export function claudeRecordView(data: RawTranscriptRecord): RawTranscriptRecord {
  if (data.isSidechain === true) return { isSidechain: true };
  if (data.type !== undefined && READ_WHOLE.has(data.type)) {
    if (data[UNREAD_RESULT] === undefined) return data;
    const { [UNREAD_RESULT]: _unread, ...read } = data;
    return read;
  }
  if (data.type === 'attachment' && data.attachment?.type === READ_ATTACHMENT) return data;
  const view: Record<string, unknown> = {};
  for (const key of WHERE_KEYS) if (data[key] !== undefined) view[key] = data[key];
  return view as RawTranscriptRecord;
}
