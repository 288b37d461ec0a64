import { MAX_LINE_BYTES, OversizeLineScanner, oversizeStub } from './jsonl-oversize';
import type { RawTranscriptRecord, TranscriptRecord } from './records';

/**
 * A committed line that is not a JSON object, or one over the line cap (read as a stub record,
 * see jsonl-oversize.ts): named by its 1-based line number.
 */
export interface JsonlProblem {
  code: 'JSONL_MALFORMED_LINE' | 'JSONL_NOT_OBJECT' | 'JSONL_LINE_TOO_LONG';
  line: number;
  message: string;
  /** The line's length, for JSONL_LINE_TOO_LONG. */
  bytes?: number;
}

/** What one chunk of transcript text holds. */
export interface TranscriptChunk {
  records: TranscriptRecord[];
  problems: JsonlProblem[];
  /** UTF-8 bytes of the complete (newline-terminated) lines: add it to a byte cursor. */
  consumedBytes: number;
  /** Number of complete lines read (blank ones included), so the next chunk's baseLine is baseLine + lines. */
  lines: number;
  /** The unterminated tail (a write in progress), not parsed unless `includeUnterminated`. */
  leftover: string;
}

/** Options for parseTranscriptChunk. */
export interface ParseChunkOptions {
  /** Line number of the chunk's first line minus one (0 when reading from the start of the file). */
  baseLine?: number;
  /**
   * Also return the unterminated last line when it already parses as a JSON object (a whole
   * record whose newline is not written yet); it is never counted in consumedBytes and never a problem.
   */
  includeUnterminated?: boolean;
  /** Lines longer than this many bytes are read as stubs (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
}

/**
 * Parses JSONL transcript text into records with line numbers; never throws. Malformed committed
 * lines become problems; a line over the cap becomes a stub record and a JSONL_LINE_TOO_LONG
 * problem; an unterminated final line is leftover, not an error, so a reader at a byte cursor
 * can come back for it once the host finishes the write.
 *
 * @example
 * const chunk = parseTranscriptChunk(buf.toString('utf8'), { baseLine: cursor.lines });
 * cursor = { bytes: cursor.bytes + chunk.consumedBytes, lines: cursor.lines + chunk.lines };
 */
export function parseTranscriptChunk(text: string, options: ParseChunkOptions = {}): TranscriptChunk {
  const baseLine = options.baseLine ?? 0;
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const end = text.lastIndexOf('\n') + 1;
  const committed = text.slice(0, end);
  const leftover = text.slice(end);
  const records: TranscriptRecord[] = [];
  const problems: JsonlProblem[] = [];
  const rows = committed === '' ? [] : committed.slice(0, -1).split('\n');
  rows.forEach((row, index) => {
    const line = baseLine + index + 1;
    if (overCap(row, maxLineBytes)) {
      const scan = new OversizeLineScanner();
      scan.push(new TextEncoder().encode(row));
      const read = readOversizeLine(scan, line, maxLineBytes);
      problems.push(read.problem);
      if (read.record) records.push(read.record);
      return;
    }
    const parsed = parseTranscriptLine(row, line);
    if (parsed === null) return;
    if ('problem' in parsed) problems.push(parsed.problem);
    else records.push(parsed.record);
  });
  if (options.includeUnterminated && leftover.trim() !== '' && !overCap(leftover, maxLineBytes)) {
    const parsed = parseTranscriptLine(leftover, baseLine + rows.length + 1);
    if (parsed !== null && 'record' in parsed) records.push(parsed.record);
  }
  return { records, problems, consumedBytes: Buffer.byteLength(committed, 'utf8'), lines: rows.length, leftover };
}

/**
 * The record or problem a scanned over-long line gives: a stub and JSONL_LINE_TOO_LONG when it
 * was one JSON object, else JSONL_MALFORMED_LINE.
 */
export function readOversizeLine(scan: OversizeLineScanner, line: number, maxLineBytes = MAX_LINE_BYTES): { record?: TranscriptRecord; problem: JsonlProblem } {
  if (!scan.valid()) {
    return { problem: { code: 'JSONL_MALFORMED_LINE', line, bytes: scan.bytes, message: `line ${line} (${scan.bytes} bytes, over the ${maxLineBytes}-byte line cap) is not one JSON object` } };
  }
  return {
    record: { line, data: oversizeStub(scan, maxLineBytes) },
    problem: { code: 'JSONL_LINE_TOO_LONG', line, bytes: scan.bytes, message: `line ${line} holds ${scan.bytes} bytes, over the ${maxLineBytes}-byte line cap; read as a stub without its content` },
  };
}

// A JS string's UTF-8 length is between its length and three times it: measure only when unsure.
function overCap(row: string, maxLineBytes: number): boolean {
  return row.length > maxLineBytes || (row.length * 3 > maxLineBytes && Buffer.byteLength(row, 'utf8') > maxLineBytes);
}

/** One JSONL line (no newline) as a record, a problem, or null when blank. */
export function parseTranscriptLine(row: string, line: number): { record: TranscriptRecord } | { problem: JsonlProblem } | null {
  const trimmed = row.endsWith('\r') ? row.slice(0, -1) : row;
  if (trimmed.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { problem: { code: 'JSONL_MALFORMED_LINE', line, message: `line ${line} is not valid JSON (${reason})` } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: { code: 'JSONL_NOT_OBJECT', line, message: `line ${line} is JSON but not an object` } };
  }
  return { record: { line, data: value as RawTranscriptRecord } };
}
