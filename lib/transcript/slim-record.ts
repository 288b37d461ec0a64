import { detach } from './detach';
import type { TranscriptRecord } from './records';

/** The longest string a slimmed record keeps. */
export const SLIM_STRING_CHARS = 4096;

// JSON from a transcript is shallow; deeper values are kept as they are rather than walked.
const MAX_DEPTH = 32;

/**
 * A copy of a record whose strings are at most `maxChars` long (longer ones keep their start,
 * copied so they hold nothing else alive), for folding a turn too long to hold whole: work
 * events read ids, paths, commands, the first lines of outputs and the start of texts, never
 * the megabytes behind them. Keys are copied as own properties, `__proto__` included.
 */
export function slimRecord(record: TranscriptRecord, maxChars = SLIM_STRING_CHARS): TranscriptRecord {
  return { line: record.line, data: slim(record.data, maxChars, 0) as TranscriptRecord['data'] };
}

function slim(value: unknown, maxChars: number, depth: number): unknown {
  if (typeof value === 'string') return value.length > maxChars ? detach(value.slice(0, maxChars)) : value;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => slim(v, maxChars, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, slim(v, maxChars, depth + 1)]));
}
