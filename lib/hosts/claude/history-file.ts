import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from '../../local-state/regular-file';
import { CapsuleError } from '../../errors/capsule-error';
import { withText } from '../../history/history-addresses';
import { HistoryBuilder, type ProjectHistoryOptions } from '../../history/history-project';
import type { HistoryEvent, HistoryProjection } from '../../history/history-types';
import { JsonlLineReader } from '../../transcript/jsonl-reader';
import type { RawTranscriptRecord } from '../../transcript/records';

/** Bytes read per readSync: the reader's buffer, reused for the whole file. */
const CHUNK_BYTES = 1024 * 1024;
/** The first read for one line (most are a few KB); later reads double up to CHUNK_BYTES. */
const LINE_FIRST_BYTES = 16 * 1024;

/**
 * Projects a transcript file's history while streaming it in 1 MiB reads: records are folded
 * into the address book as they are read and their text is digested, not kept (see
 * history-addresses AddressOptions.keepText), and a line over the line cap is scanned, not held.
 * Memory grows with the number of events, never with the file's size. Throws the codes of
 * projectHistory, and HISTORY_NO_TRANSCRIPT when the file cannot be read.
 */
export function projectHistoryFile(path: string, options: ProjectHistoryOptions): HistoryProjection {
  const builder = new HistoryBuilder({ ...options, keepText: false });
  const reader = new JsonlLineReader((l) => {
    if (l.problem) builder.problem(l.problem);
    if (l.record) builder.add(l.record, l.offset);
  });
  eachChunk(path, 0, CHUNK_BYTES, (chunk) => {
    reader.push(chunk);
    return true;
  });
  reader.end({ includeUnterminated: true });
  return builder.finish();
}

/**
 * withText over the file: reads again the one or two lines an event kept without text came
 * from (its record, and its tool result's), each bounded by the line cap.
 */
export function eventTextFromFile(path: string): (event: HistoryEvent) => HistoryEvent {
  return (event) => {
    const call = event.tool !== undefined && event.tool.status !== 'orphan-result';
    const result = call && event.tool?.status !== 'pending' ? recordAt(path, event.tool?.resultOffset) : null;
    return withText(event, call ? null : recordAt(path, event.offset), result);
  };
}

// The record of the line starting at `offset` (a stub when the line is over the cap).
function recordAt(path: string, offset: number | undefined): RawTranscriptRecord | null {
  if (offset === undefined) return null;
  let record: RawTranscriptRecord | null = null;
  let done = false;
  const reader = new JsonlLineReader((l) => {
    // The chunk goes on past the line: only the first one is this event's.
    if (done) return;
    done = true;
    record = l.record?.data ?? null;
  }, { startByte: offset });
  eachChunk(path, offset, LINE_FIRST_BYTES, (chunk) => {
    reader.push(chunk);
    return !done;
  });
  if (!done) reader.end({ includeUnterminated: true });
  return record;
}

// Calls `each` with successive chunks of the file from `start`, `first` bytes and then doubling
// up to CHUNK_BYTES, while it returns true.
function eachChunk(path: string, start: number, first: number, each: (chunk: Uint8Array) => boolean): void {
  let fd: number;
  try {
    fd = openRegularFile(path, { followLinks: true });
  } catch (err) {
    throw new CapsuleError('HISTORY_NO_TRANSCRIPT', `history: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'}); expected a Claude Code session transcript.`, { path }, { cause: err });
  }
  try {
    let buffer = new Uint8Array(first);
    for (let position = start; ; ) {
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n === 0) return;
      position += n;
      if (!each(buffer.subarray(0, n))) return;
      if (buffer.length < CHUNK_BYTES) buffer = new Uint8Array(Math.min(CHUNK_BYTES, buffer.length * 2));
    }
  } finally {
    closeSync(fd);
  }
}
