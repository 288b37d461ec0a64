import { redactDeep } from '../redact/redact-deep';
import type { RawTranscriptRecord, TranscriptRecord } from '../transcript/records';

// The host's opaque values, which hold no user text and would only cost the redactor time (a
// thinking block's signature is kilobytes of base64 that reads as random).
const OPAQUE_KEYS: ReadonlySet<string> = new Set(['signature']);
// Where a host's records hold a shell command (Claude Code's Bash `input.command`; Codex's
// `arguments.cmd`, the older `command` argv, `parsed_cmd[].cmd`, CommandExecution's `command`):
// kept through the allow-list, so no argument value but a path, a number or a plain word reaches
// extraction, and with it the capsule and the runtime state (issue 36).
const COMMAND_KEYS: ReadonlySet<string> = new Set(['command', 'cmd']);
// Codex gives a tool call's arguments as JSON text.
const JSON_KEYS: ReadonlySet<string> = new Set(['arguments']);
const RECORD_OPTIONS = { skipKeys: OPAQUE_KEYS, commandKeys: COMMAND_KEYS, jsonKeys: JSON_KEYS };

/**
 * A transcript record with every string redacted (lib/redact/redact-deep.ts), the boundary where
 * host text enters extraction: whatever the work-state rules later clip, join or render, no
 * secret is in it (a token cut below its pattern's length, or a key block joined onto one line,
 * would no longer be recognisable as one).
 */
export function redactRecord(record: TranscriptRecord): TranscriptRecord {
  return { line: record.line, data: redactDeep(record.data, RECORD_OPTIONS).value };
}

/**
 * `redactRecord` over a delta's records; with a `view` (the host's HostRecordView), over the part
 * of each record its reader reads, so what no reader reads is not redacted for nothing.
 */
export function redactRecords(records: readonly TranscriptRecord[], view?: (data: RawTranscriptRecord) => RawTranscriptRecord): TranscriptRecord[] {
  return view === undefined ? records.map(redactRecord) : records.map((r) => redactRecord({ line: r.line, data: view(r.data) }));
}

/** One host string (the payload's `last_assistant_message`) redacted the same way. */
export function redactHostText(text: string): string {
  return redactDeep(text).value;
}
