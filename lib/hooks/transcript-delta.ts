import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { TranscriptCursor } from './session-state';

/** The transcript text after a cursor, and where it starts. */
export interface TranscriptDelta {
  text: string;
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

const HEAD_BYTES = 512;
const UTF8 = new TextDecoder('utf-8');
/** A first read of a long transcript (plugin installed mid-session) reads only its tail. */
export const MAX_DELTA_BYTES = 4 * 1024 * 1024;

/**
 * Reads what was appended to a transcript since `cursor`. A file shorter than the cursor, or
 * whose first bytes changed, was truncated or replaced: reading restarts at 0. A missing file
 * is an empty delta. An unterminated last line is returned as is; the JSONL reader leaves it
 * unconsumed so the next call reads it again once complete.
 */
export function readTranscriptDelta(path: string, cursor: TranscriptCursor | undefined): TranscriptDelta | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
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
    let start = trusted ? cursor.bytes : 0;
    let baseLine = trusted ? cursor.lines : 0;
    let text = '';
    if (size - start > MAX_DELTA_BYTES) {
      // Skip to the first whole line inside the tail; line numbers are unknown from here on.
      const tail = readRange(fd, size - MAX_DELTA_BYTES, MAX_DELTA_BYTES);
      const firstNewline = tail.indexOf(10);
      start = size - MAX_DELTA_BYTES + firstNewline + 1;
      baseLine = 0;
      text = UTF8.decode(tail.subarray(firstNewline + 1));
    } else {
      text = UTF8.decode(readRange(fd, start, size - start));
    }
    return { text, startBytes: start, baseLine, restarted: !trusted && cursor !== undefined, head, headLength };
  } finally {
    closeSync(fd);
  }
}

/** The cursor after consuming `consumedBytes` / `lines` of a delta. */
export function advanceCursor(delta: TranscriptDelta, consumed: { consumedBytes: number; lines: number }): TranscriptCursor {
  return { bytes: delta.startBytes + consumed.consumedBytes, lines: delta.baseLine + consumed.lines, head: delta.head, headLength: delta.headLength };
}

// Uint8Array rather than Buffer: @types/node 20.9 and TypeScript 5.9 disagree about Buffer's ArrayBuffer.
function readRange(fd: number, position: number, length: number): Uint8Array {
  const buffer = new Uint8Array(Math.max(0, length));
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/**
 * The head itself, base64 (at most 512 bytes): an exact comparison that needs no hash, where a
 * sha1 cost every Stop ~4 ms of loading node:crypto.
 */
function fingerprint(bytes: Uint8Array): string {
  return `b64:${Buffer.from(bytes).toString('base64')}`;
}

/** True when `bytes` is the head a cursor remembered: as base64, or as the sha1 earlier versions wrote. */
function sameHead(bytes: Uint8Array, remembered: string): boolean {
  if (remembered.startsWith('b64:')) return fingerprint(bytes) === remembered;
  if (!/^[0-9a-f]{40}$/.test(remembered)) return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only a cursor from an earlier version pays for crypto
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha1').update(bytes).digest('hex') === remembered;
}
