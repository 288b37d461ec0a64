import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFile, readFullyAt } from '../local-state/regular-file';
import { JsonlLineReader } from '../transcript/jsonl-reader';
import type { TranscriptRecord } from '../transcript/records';
import { SLIM_STRING_CHARS, slimRecord } from '../transcript/slim-record';
import { redactRecord } from './redact-records';
import type { TranscriptCursor } from '../local-state/session-state';
import type { HostRecordView } from './host';

/** The transcript text after a cursor, and where it starts. */
export interface TranscriptDelta {
  /** The delta as text ('' when it was streamed). */
  text: string;
  /** A delta over MAX_DELTA_BYTES, read line by line instead: its records (viewed), redacted, then slimmed (slimRecord). */
  streamed?: { records: TranscriptRecord[]; consumedBytes: number; lines: number };
  /** Bytes after a trusted cursor that were skipped because the delta was over MAX_STREAMED_DELTA_BYTES. */
  skippedBytes: number;
  /** Byte offset of `text` in the file. */
  startBytes: number;
  /** Line count before `text` (for line numbers). */
  baseLine: number;
  /** True when the cursor could not be trusted (file shorter, head changed) and reading restarted at 0. */
  restarted: boolean;
  /** The fingerprint of the file head, to store with the next cursor. */
  head: string;
  headLength: number;
}

/** How one delta is read. */
export interface DeltaOptions {
  /** Its limits (tests pass small ones). */
  limits?: DeltaLimits;
  /** The host's HostRecordView: a streamed delta keeps (and redacts) only the part of each record its reader reads. */
  view?: HostRecordView;
}

/** Limits of one delta read (tests pass small ones). */
export interface DeltaLimits {
  /** A delta up to this size is read whole, as text. */
  maxTextBytes: number;
  /** A longer one is streamed line by line, records slimmed, from at most its last this many bytes. */
  maxStreamedBytes: number;
}

const HEAD_BYTES = 512;
const UTF8 = new TextDecoder('utf-8');
/** A delta up to this size (one ordinary turn) is read whole. */
export const MAX_DELTA_BYTES = 4 * 1024 * 1024;
/**
 * A longer delta (a long turn, or the first read of a long transcript when the plugin was
 * installed mid-session) is streamed from at most its last 8 MiB, records slimmed, no line over
 * 8 MiB held. Measured on a 200 MB transcript: 8 MiB peaks at ~72 MB RSS (the 4 MiB text read
 * before it: 70 MB), 16 MiB at ~95 MB, 32 MiB at ~105 MB, mostly parse garbage, not records.
 */
export const MAX_STREAMED_DELTA_BYTES = 8 * 1024 * 1024;
const DEFAULT_LIMITS: DeltaLimits = { maxTextBytes: MAX_DELTA_BYTES, maxStreamedBytes: MAX_STREAMED_DELTA_BYTES };
const READ_CHUNK = 1024 * 1024;
/** Characters past the slim bound redacted with it: longer than any one-line secret. */
const REDACT_MARGIN = 2048;

/**
 * Reads what was appended to a transcript since `cursor`. A file shorter than the cursor, or
 * whose first bytes changed, was truncated or replaced: reading restarts at 0. A missing file
 * is an empty delta. An unterminated last line is returned as is; the JSONL reader leaves it
 * unconsumed so the next call reads it again once complete.
 */
export function readTranscriptDelta(path: string, cursor: TranscriptCursor | undefined, opts: DeltaOptions = {}): TranscriptDelta | null {
  const limits = opts.limits ?? DEFAULT_LIMITS;
  let fd: number;
  try {
    // Non-blocking and regular files only: a FIFO as transcript_path would block the hook for ever.
    fd = openRegularFile(path, { followLinks: true });
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const headLength = Math.min(size, HEAD_BYTES);
    const head = fingerprint(readRange(fd, 0, headLength));
    const trusted =
      cursor !== undefined && cursor.bytes <= size && cursor.headLength <= size &&
      sameHead(readRange(fd, 0, cursor.headLength), cursor.head);
    const from = trusted ? cursor.bytes : 0;
    const base = { head, headLength, restarted: !trusted && cursor !== undefined };
    if (size - from <= limits.maxTextBytes) {
      return { ...base, text: UTF8.decode(readRange(fd, from, size - from)), startBytes: from, baseLine: trusted ? cursor.lines : 0, skippedBytes: 0 };
    }
    // Over the window: start at the first whole line inside it; line numbers are unknown from there.
    const clipped = size - from > limits.maxStreamedBytes;
    const start = clipped ? nextLineStart(fd, size - limits.maxStreamedBytes, size) : from;
    const baseLine = clipped || !trusted ? 0 : cursor.lines;
    return {
      ...base,
      text: '',
      streamed: streamRecords(fd, { start, end: size, baseLine, view: opts.view }),
      // A first read of a long transcript is a tail by design; only a trusted cursor's delta loses turns.
      skippedBytes: trusted ? start - from : 0,
      startBytes: start,
      baseLine,
    };
  } finally {
    closeSync(fd);
  }
}

/**
 * The delta's records from `start` to `end`, holding at most one line (of at most 8 MiB) at a
 * time. Each record is redacted before it is slimmed to SLIM_STRING_CHARS, a token cut at that
 * bound would no longer be recognisable, and redacted with REDACT_MARGIN characters past the
 * bound, which any secret that starts before it ends within: the cost stays bounded per string
 * however long the line (a 6 MB output costs what 5 KB do). With a view, only the part of each
 * record the host's reader reads is slimmed, redacted and kept.
 */
function streamRecords(fd: number, at: { start: number; end: number; baseLine: number; view?: HostRecordView }): NonNullable<TranscriptDelta['streamed']> {
  const { start, end, baseLine, view } = at;
  const records: TranscriptRecord[] = [];
  const read = (record: TranscriptRecord) => (view === undefined ? record : { line: record.line, data: view(record.data) });
  const keep = (record: TranscriptRecord) => slimRecord(redactRecord(slimRecord(read(record), SLIM_STRING_CHARS + REDACT_MARGIN)));
  const reader = new JsonlLineReader((l) => l.record && records.push(keep(l.record)), { baseLine, startByte: start });
  eachChunk(fd, start, end, READ_CHUNK, (chunk) => {
    reader.push(chunk);
    return true;
  });
  return { records, ...reader.end({ includeUnterminated: true }) };
}

/** The offset just after the first newline at or after `from` (`end` when there is none). */
function nextLineStart(fd: number, from: number, end: number): number {
  let found = end;
  eachChunk(fd, from, end, 64 * 1024, (chunk, at) => {
    const newline = chunk.indexOf(10);
    if (newline !== -1) found = at + newline + 1;
    return newline === -1;
  });
  return found;
}

/** Calls `each` with successive chunks (one reused buffer) of `[from, end)` and their offsets, while it returns true. */
function eachChunk(fd: number, from: number, end: number, size: number, each: (chunk: Uint8Array, at: number) => boolean): void {
  const buffer = new Uint8Array(size);
  for (let at = from; at < end; ) {
    const n = readSync(fd, buffer, 0, Math.min(size, end - at), at);
    if (n === 0 || !each(buffer.subarray(0, n), at)) return;
    at += n;
  }
}

/** The cursor after consuming `consumedBytes` / `lines` of a delta. */
export function advanceCursor(delta: TranscriptDelta, consumed: { consumedBytes: number; lines: number }): TranscriptCursor {
  return { bytes: delta.startBytes + consumed.consumedBytes, lines: delta.baseLine + consumed.lines, head: delta.head, headLength: delta.headLength };
}

// Uint8Array rather than Buffer: @types/node 20.9 and TypeScript 5.9 disagree about Buffer's ArrayBuffer.
function readRange(fd: number, position: number, length: number): Uint8Array {
  const buffer = new Uint8Array(Math.max(0, length));
  return buffer.subarray(0, readFullyAt(fd, buffer, position));
}

/**
 * Two 32-bit FNV-1a hashes of the head (at most 512 bytes), hex: an exact-enough comparison that
 * needs no crypto (a sha1 cost every Stop ~4 ms of loading node:crypto) and, unlike the head
 * itself in base64 (the form before 0.2), keeps no transcript text in the runtime state: the
 * first 512 bytes of a transcript are the session's first prompt, secrets and all.
 */
function fingerprint(bytes: Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) {
    a = Math.imul(a ^ bytes[i]!, 0x01000193) >>> 0;
    b = Math.imul(b ^ bytes[bytes.length - 1 - i]!, 0x01000193) >>> 0;
  }
  return `fnv:${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}

/**
 * True when `bytes` is the head a cursor remembered. A head in another form (the base64 or sha1
 * of earlier versions) is not trusted: the delta restarts from 0, and the fold is idempotent.
 */
function sameHead(bytes: Uint8Array, remembered: string): boolean {
  return fingerprint(bytes) === remembered;
}
