import type { RawTranscriptRecord, TranscriptRecord } from './records';

/** A committed line that is not a JSON object: named by its 1-based line number. */
export interface JsonlProblem {
  code: 'JSONL_MALFORMED_LINE' | 'JSONL_NOT_OBJECT';
  line: number;
  message: string;
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
}

/**
 * Parses JSONL transcript text into records with line numbers; never throws. Malformed committed
 * lines become problems; an unterminated final line is leftover, not an error, so a reader at a
 * byte cursor can come back for it once the host finishes the write.
 *
 * @example
 * const chunk = parseTranscriptChunk(buf.toString('utf8'), { baseLine: cursor.lines });
 * cursor = { bytes: cursor.bytes + chunk.consumedBytes, lines: cursor.lines + chunk.lines };
 */
export function parseTranscriptChunk(text: string, options: ParseChunkOptions = {}): TranscriptChunk {
  const baseLine = options.baseLine ?? 0;
  const end = text.lastIndexOf('\n') + 1;
  const committed = text.slice(0, end);
  const leftover = text.slice(end);
  const records: TranscriptRecord[] = [];
  const problems: JsonlProblem[] = [];
  const rows = committed === '' ? [] : committed.slice(0, -1).split('\n');
  rows.forEach((row, index) => {
    const line = baseLine + index + 1;
    const parsed = parseLine(row, line);
    if (parsed === null) return;
    if ('problem' in parsed) problems.push(parsed.problem);
    else records.push(parsed.record);
  });
  if (options.includeUnterminated && leftover.trim() !== '') {
    const parsed = parseLine(leftover, baseLine + rows.length + 1);
    if (parsed !== null && 'record' in parsed) records.push(parsed.record);
  }
  return { records, problems, consumedBytes: Buffer.byteLength(committed, 'utf8'), lines: rows.length, leftover };
}

function parseLine(row: string, line: number): { record: TranscriptRecord } | { problem: JsonlProblem } | null {
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
