import { posix } from 'node:path';
import { MAX_WORK_EVENT_TEXT } from './work-event-types';

/** One line, whitespace collapsed, at most `max` characters (cut with `…`). */
export function clipText(value: string, max = MAX_WORK_EVENT_TEXT): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** A path as the tool saw it, made absolute against the record's cwd when it was relative. */
export function absolutePath(path: string, cwd: string | undefined): string {
  if (posix.isAbsolute(path) || cwd === undefined || !posix.isAbsolute(cwd)) return path;
  return posix.join(cwd, path);
}

/** The first `max` characters of the first non-empty lines of a tool's output, on one line. */
export function firstLines(text: string, lines = 3): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .slice(0, lines)
    .join(' — ');
}
