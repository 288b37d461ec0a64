import type { Problem } from './types';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const STAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export type CreatedAtResult = { ok: true; epochMs: number } | { ok: false; problem: Problem };

/**
 * Parses an ISO-8601 stamp that must carry its offset. A date-only stamp is its own problem
 * (CREATED_AT_DATE_ONLY), never silently midnight UTC; a stamp without offset is
 * CREATED_AT_NO_OFFSET; anything else unreadable is CREATED_AT_INVALID.
 */
export function parseCreatedAt(value: unknown, field = 'created_at'): CreatedAtResult {
  // One write parses the same stamp three times (validation, the store's write, the index entry):
  // the last answer is kept, so its patterns run once per process, where they cost most.
  if (last === undefined || last.value !== value || last.field !== field) {
    const result = readStamp(value, field);
    if (typeof value !== 'string') return result;
    last = { value, field, result };
  }
  // A copy each time: a caller may keep or change the problem it was given.
  return last.result.ok ? { ok: true, epochMs: last.result.epochMs } : { ok: false, problem: { ...last.result.problem } };
}

let last: { value: string; field: string; result: CreatedAtResult } | undefined;

function readStamp(value: unknown, field: string): CreatedAtResult {
  const fail = (code: string, message: string): CreatedAtResult => ({ ok: false, problem: { code, field, message } });
  if (typeof value !== 'string') {
    return fail('CREATED_AT_INVALID', `${field} must be an ISO-8601 string with offset, got ${describe(value)}`);
  }
  const text = value.trim();
  if (DATE_ONLY.test(text)) {
    return fail('CREATED_AT_DATE_ONLY', `${field} "${text}" is a date without a time; write a full stamp such as ${text}T09:00:00+00:00`);
  }
  const m = STAMP.exec(text);
  if (!m) return fail('CREATED_AT_INVALID', `${field} "${clip(text)}" is not an ISO-8601 stamp such as 2026-11-29T21:08:00+01:00`);
  if (m[7] === undefined) {
    return fail('CREATED_AT_NO_OFFSET', `${field} "${text}" has no offset; add Z or ±hh:mm so it orders correctly across machines`);
  }
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as number[];
  const calendar = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  const realDate =
    calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month! - 1 && calendar.getUTCDate() === day &&
    hour! < 24 && minute! < 60 && second! < 61;
  const offset = m[7].toUpperCase() === 'Z' ? m[7] : m[7].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const epochMs = Date.parse(text.replace(' ', 'T').replace(/(Z|[+-]\d{2}:?\d{2})$/i, offset));
  if (!realDate || Number.isNaN(epochMs)) {
    return fail('CREATED_AT_INVALID', `${field} "${text}" is not a real calendar date and time`);
  }
  return { ok: true, epochMs };
}

/**
 * A fixed-width UTC key that sorts as the instant does. Comparing `created_at` strings with
 * mixed offsets picks the wrong capsule, so every index sorts on this instead.
 */
export function utcSortKey(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  // yyyy-mm-ddThh:mm:ss.sssZ for years 0 to 9999: the separators sit at fixed places.
  if (iso.length === 24) return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}${iso.slice(20)}`;
  return iso.replace(/[-:]/g, '').replace('.', '');
}

/** An ISO-8601 stamp of `now` with the given offset in minutes east of UTC (writers stamp local time). */
export function formatStamp(now: Date, offsetMinutes = 0): string {
  const local = new Date(now.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local.toISOString().slice(0, 19)}${sign}${hh}:${mm}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `${typeof value} ${String(value)}`;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
