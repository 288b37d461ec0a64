import { join } from 'node:path';
import { appendPrivateFile } from './private-file';
import type { ErrorCode } from '../errors/error-codes';
import { STATE_FILES } from './state-files';

/** The error log's file name inside the runtime dir. */
export const ERROR_LOG_FILE = STATE_FILES.errorLog.path;

/** One error-log line before it is written. */
export interface ErrorLogEntry {
  code: ErrorCode;
  message: string;
}

/**
 * Appends one line to `<dir>/errors.log`: the code first (so `grep '^CODE'` finds it), then the
 * time, the event and a one-line message. Returns the log path, or null when it could not write
 * (a hook must not fail because its own log is unwritable).
 */
export function appendErrorLog(dir: string | null, entry: ErrorLogEntry & { now: Date; event: string }): string | null {
  return appendErrorLines(dir, [entry], entry);
}

/**
 * Appends several lines at once, in the same format. Best effort, like `appendErrorLog`: the
 * resume text already carries every diagnostic it logs, so the log is a second copy.
 */
export function appendErrorLines(dir: string | null, entries: readonly ErrorLogEntry[], ctx: { now: Date; event: string }): string | null {
  if (dir === null || entries.length === 0) return null;
  const text = entries.map((e) => `${e.code} ${ctx.now.toISOString()} ${ctx.event} ${oneLine(e.message)}\n`).join('');
  try {
    // Private, and never through a link planted in the log's place (lib/local-state/private-file.ts).
    const path = join(dir, ERROR_LOG_FILE);
    appendPrivateFile(path, text);
    return path;
  } catch {
    return null;
  }
}

/** Flattens a message to one bounded line. */
export function oneLine(text: string, max = 400): string {
  const flat = text.replace(/[\r\n\u2028\u2029\u0085]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
