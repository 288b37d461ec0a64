import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The error log's file name inside the runtime dir. */
export const ERROR_LOG_FILE = 'errors.log';

/**
 * Appends one line to `<dir>/errors.log`: the code first (so `grep '^CODE'` finds it), then the
 * time, the event and a one-line message. Returns the log path, or null when it could not write
 * (a hook must not fail because its own log is unwritable).
 */
export function appendErrorLog(dir: string | null, entry: { code: string; now: Date; event: string; message: string }): string | null {
  if (dir === null) return null;
  const line = `${entry.code} ${entry.now.toISOString()} ${entry.event} ${oneLine(entry.message)}\n`;
  try {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, ERROR_LOG_FILE);
    appendFileSync(path, line);
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
