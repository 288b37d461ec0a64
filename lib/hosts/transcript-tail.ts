import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFile, readFullyAt } from '../local-state/regular-file';
import { parseTranscriptLine } from '../transcript/jsonl';
import { JsonlLineReader } from '../transcript/jsonl-reader';

const UTF8 = new TextDecoder('utf-8');

const FIRST_TAIL_BYTES = 256 * 1024;
const MAX_TAIL_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
// Lines longer than this are scanned rather than parsed: their stubs keep model and usage.
const TAIL_LINE_BYTES = 1024 * 1024;

/** What the tail said (the last record that said anything), or why the file could not be read. */
export type TranscriptTailRead<T> =
  | { ok: true; found: T | null; bytesRead: number; fileBytes: number }
  | { ok: false; code: 'TRANSCRIPT_UNREADABLE'; message: string };

/**
 * Reads the newest thing a transcript file says, as `pick` reads it from one record (a value,
 * null for "what came before is stale, and nothing replaced it", undefined for "says nothing"):
 * a 256 KiB tail first, doubling up to 16 MiB (or the whole file) while no record has said
 * anything, because a hook runs on every prompt and a long session's transcript reaches tens of
 * megabytes. A tail of up to 1 MiB is read whole and walked from its end, parsing only until a
 * record says something: that is the same record a walk from its start would keep last, and it
 * is usually among the last few (parsing all of a real 256 KiB tail cost UserPromptSubmit
 * ~5-10 ms). A longer tail streams through the line reader in 1 MiB reads and only the deciding
 * value is kept; a line over 1 MiB is scanned, never held (its stub keeps ids, model and
 * usage). A host adapter gives `pick` (Claude Code: the last usage; Codex: the last token_count). Never throws.
 */
export function readTranscriptTail<T>(path: string, pick: (record: Record<string, unknown>) => T | null | undefined): TranscriptTailRead<T> {
  let fd: number;
  try {
    fd = openRegularFile(path, { followLinks: true });
  } catch (err) {
    return { ok: false, code: 'TRANSCRIPT_UNREADABLE', message: `cannot open transcript ${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
  try {
    const size = fstatSync(fd).size;
    const buffer = new Uint8Array(Math.min(CHUNK_BYTES, Math.max(1, size)));
    for (let want = FIRST_TAIL_BYTES; ; want *= 2) {
      const length = Math.min(want, size, MAX_TAIL_BYTES);
      // Read whole, no line in it is over TAIL_LINE_BYTES (CHUNK_BYTES is no more): none needs the scanner.
      if (length <= buffer.length) {
        const whole = buffer.subarray(0, readFullyAt(fd, buffer.subarray(0, length), size - length));
        const walked = newestFromEnd(whole, pick);
        if (walked !== undefined || length >= size) return { ok: true, found: walked ?? null, bytesRead: whole.length, fileBytes: size };
        continue;
      }
      // A tail starting mid-record gives one malformed first line: a problem to skip, not an error.
      let found: T | null | undefined;
      const reader = new JsonlLineReader(
        (l) => {
          const said = l.record ? pick(l.record.data) : undefined;
          if (said !== undefined) found = said;
        },
        { maxLineBytes: TAIL_LINE_BYTES },
      );
      let read = 0;
      while (read < length) {
        const n = readSync(fd, buffer, 0, Math.min(buffer.length, length - read), size - length + read);
        if (n === 0) break;
        reader.push(buffer.subarray(0, n));
        read += n;
      }
      reader.end({ includeUnterminated: true });
      if (found !== undefined || length >= size || length >= MAX_TAIL_BYTES) return { ok: true, found: found ?? null, bytesRead: read, fileBytes: size };
    }
  } catch (err) {
    return { ok: false, code: 'TRANSCRIPT_UNREADABLE', message: `cannot read transcript ${path}: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    closeSync(fd);
  }
}

/**
 * What the newest record of `bytes` that says anything says (undefined: none does), walking its
 * lines from the end. Every piece between newlines counts as a line, as in the line reader: the
 * unterminated last one and a first one cut mid-record are kept when they parse whole.
 */
function newestFromEnd<T>(bytes: Uint8Array, pick: (record: Record<string, unknown>) => T | null | undefined): T | null | undefined {
  for (let end = bytes.length; end > 0; ) {
    const newline = bytes.lastIndexOf(10, end - 1);
    const parsed = parseTranscriptLine(UTF8.decode(bytes.subarray(newline + 1, end)), 0);
    const said = parsed && 'record' in parsed ? pick(parsed.record.data) : undefined;
    if (said !== undefined) return said;
    end = newline;
  }
  return undefined;
}
