import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { contextFill, type ContextFill } from '../budget/context-fill';
import { parseTranscriptChunk } from '../transcript/jsonl';

const FIRST_TAIL_BYTES = 256 * 1024;
const MAX_TAIL_BYTES = 16 * 1024 * 1024;

/** The fill read from a transcript file, or why there is none. */
export type TranscriptFillRead =
  | { ok: true; fill: ContextFill | null; bytesRead: number; fileBytes: number }
  | { ok: false; code: 'TRANSCRIPT_UNREADABLE'; message: string };

/**
 * Reads the context fill from the end of a transcript file: a 256 KiB tail first, doubling up
 * to 16 MiB (or the whole file) while no usable record has been found, because a hook runs on
 * every prompt and a long session's transcript reaches tens of megabytes. Never throws.
 */
export function readTranscriptFill(path: string): TranscriptFillRead {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    return { ok: false, code: 'TRANSCRIPT_UNREADABLE', message: `cannot open transcript ${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
  try {
    const size = fstatSync(fd).size;
    for (let want = FIRST_TAIL_BYTES; ; want *= 2) {
      const length = Math.min(want, size, MAX_TAIL_BYTES);
      const buf = new Uint8Array(length);
      const read = readSync(fd, buf, 0, length, size - length);
      // A tail starting mid-record gives one malformed first line: a problem to skip, not an error.
      const chunk = parseTranscriptChunk(new TextDecoder().decode(buf.subarray(0, read)), { includeUnterminated: true });
      const fill = contextFill(chunk.records.map((r) => r.data));
      if (fill !== null || length >= size || length >= MAX_TAIL_BYTES) return { ok: true, fill, bytesRead: read, fileBytes: size };
    }
  } catch (err) {
    return { ok: false, code: 'TRANSCRIPT_UNREADABLE', message: `cannot read transcript ${path}: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    closeSync(fd);
  }
}
