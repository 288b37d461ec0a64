import { MAX_LINE_BYTES, OversizeLineScanner } from './jsonl-oversize';
import { parseTranscriptLine, readOversizeLine, type JsonlProblem } from './jsonl';
import type { TranscriptRecord } from './records';

/** One non-blank line the reader finished: its record and/or problem, and where it lies in the file. */
export interface ReadLine {
  record?: TranscriptRecord;
  problem?: JsonlProblem;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** The line's length in bytes, without its newline. */
  bytes: number;
}

/** Options for JsonlLineReader. */
export interface JsonlLineReaderOptions {
  /** Line count before the first byte pushed. */
  baseLine?: number;
  /** Byte offset of the first byte pushed. */
  startByte?: number;
  /** Lines longer than this are scanned into stubs instead of held (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
}

const UTF8 = new TextDecoder('utf-8');

/**
 * Reads JSONL from byte chunks of any size, holding at most one line of up to `maxLineBytes`:
 * a longer line is scanned as it streams by (jsonl-oversize.ts) and never held, so memory stays
 * bounded whatever the file holds. Each finished line goes to `onLine` in file order.
 *
 * @example
 * const reader = new JsonlLineReader((l) => l.record && builder.add(l.record, l.offset));
 * for (const chunk of chunks) reader.push(chunk);
 * reader.end({ includeUnterminated: true });
 */
export class JsonlLineReader {
  private parts: Uint8Array[] = [];
  private partBytes = 0;
  private scan: OversizeLineScanner | null = null;
  private line: number;
  private offset: number;
  private readonly maxLineBytes: number;
  /** The most bytes of one line the reader has held at once (never more than maxLineBytes). */
  peakHeldBytes = 0;

  constructor(
    private readonly onLine: (line: ReadLine) => void,
    private readonly options: JsonlLineReaderOptions = {},
  ) {
    this.line = options.baseLine ?? 0;
    this.offset = options.startByte ?? 0;
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  /** Feeds the next bytes; the reader copies what it keeps, so the caller may reuse `chunk`. */
  push(chunk: Uint8Array): void {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(10, from);
      const piece = chunk.subarray(from, newline === -1 ? chunk.length : newline);
      // A line whole inside the chunk is decoded where it lies, without a copy.
      if (newline !== -1 && this.partBytes === 0 && this.scan === null && piece.length <= this.maxLineBytes) {
        this.parts = [piece];
        this.peakHeldBytes = Math.max(this.peakHeldBytes, piece.length);
      } else this.append(piece);
      if (newline === -1) return;
      this.finishLine();
      from = newline + 1;
    }
  }

  /**
   * Ends the input: an unterminated last line is a write in progress, never counted in
   * consumedBytes or lines, and read only with `includeUnterminated` when it parses whole.
   */
  end(opts: { includeUnterminated?: boolean } = {}): { consumedBytes: number; lines: number } {
    if (opts.includeUnterminated && this.scan === null && this.partBytes > 0) {
      const parsed = parseTranscriptLine(UTF8.decode(concat(this.parts, this.partBytes)), this.line + 1);
      if (parsed !== null && 'record' in parsed) this.onLine({ record: parsed.record, offset: this.offset, bytes: this.partBytes });
    }
    return { consumedBytes: this.offset - (this.options.startByte ?? 0), lines: this.line - (this.options.baseLine ?? 0) };
  }

  private append(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.scan === null && this.partBytes + piece.length > this.maxLineBytes) {
      this.scan = new OversizeLineScanner();
      for (const part of this.parts) this.scan.push(part);
      this.parts = [];
      this.partBytes = 0;
    }
    if (this.scan !== null) this.scan.push(piece);
    else {
      this.parts.push(piece.slice());
      this.partBytes += piece.length;
      this.peakHeldBytes = Math.max(this.peakHeldBytes, this.partBytes);
    }
  }

  private finishLine(): void {
    const line = ++this.line;
    const offset = this.offset;
    let read: Omit<ReadLine, 'offset' | 'bytes'> | null;
    let bytes: number;
    if (this.scan !== null) {
      bytes = this.scan.bytes;
      read = readOversizeLine(this.scan, line, this.maxLineBytes);
      this.scan = null;
    } else {
      bytes = this.parts.reduce((n, p) => n + p.length, 0);
      const parsed = parseTranscriptLine(UTF8.decode(concat(this.parts, bytes)), line);
      read = parsed === null ? null : 'record' in parsed ? { record: parsed.record } : { problem: parsed.problem };
      this.parts = [];
      this.partBytes = 0;
    }
    this.offset += bytes + 1;
    if (read !== null) this.onLine({ ...read, offset, bytes });
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
