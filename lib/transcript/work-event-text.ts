import { posix } from 'node:path';
import { MAX_QUOTE_CHARS, MAX_WORK_EVENT_TEXT } from './work-event-types';

/** One line, whitespace collapsed, at most `max` characters (cut with `…`). */
export function clipText(value: string, max = MAX_WORK_EVENT_TEXT): string {
  // Only what can be kept is flattened: a pasted megabyte costs what its first lines cost.
  const flat = value.slice(0, max * 4 + 64).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A quote for the evidence: one line, whitespace collapsed, at most `max` characters; a longer
 * text keeps its first quarter and its end (where a message states its plan), joined by ` … `.
 * The text is already redacted: every record is redacted as it leaves the reader.
 */
export function quoteText(value: string, max = MAX_QUOTE_CHARS): string {
  const flat = value.length > max * 4 ? `${value.slice(0, max * 2)} ${value.slice(-max * 2)}` : value;
  const one = flat.replace(/\s+/g, ' ').trim();
  if (one.length <= max) return one;
  const head = Math.floor(max / 4);
  return `${one.slice(0, head).trimEnd()} … ${one.slice(one.length - (max - head - 3)).trimStart()}`;
}

/**
 * The last sentence of a message (its last line, else what follows its last `.`, `!`, `?` or
 * `。！？`), one line, at most `max` characters (a longer one keeps its end): where a message
 * states its plan, in any language.
 *
 * @example lastSentence('Der Test ist grün. Als Nächstes übersetze ich die Tabelle.') // 'Als Nächstes übersetze ich die Tabelle.'
 */
export function lastSentence(value: string, max = 200): string {
  const lines = value.slice(-max * 4).split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const line = lines[lines.length - 1] ?? '';
  const parts = line.split(/(?<=[.!?])\s+(?=\S)|(?<=[。！？])/).map((p) => p.trim()).filter((p) => p !== '');
  const last = (parts[parts.length - 1] ?? '').replace(/\s+/g, ' ');
  return last.length <= max ? last : `…${last.slice(last.length - max + 1).trimStart()}`;
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

/**
 * A file path as a capsule records it: relative to the project inside it (it is right on every
 * machine), `~/…` under the home folder (the user's name never reaches the pushed branch), else
 * absolute. A relative path is first made absolute against the record's cwd.
 *
 * @example displayPath('src/a.ts', { cwd: '/home/ada/p', projectRoot: '/home/ada/p' }) // 'src/a.ts'
 */
export function displayPath(path: string, where: { cwd?: string; projectRoot?: string; homeDir?: string }): string {
  const absolute = absolutePath(path, where.cwd);
  if (!posix.isAbsolute(absolute)) return absolute;
  const clean = posix.normalize(absolute);
  const inside = (root: string | undefined) => {
    if (root === undefined || !posix.isAbsolute(root)) return null;
    const rel = posix.relative(posix.normalize(root), clean);
    return rel === '' || rel.startsWith('..') || posix.isAbsolute(rel) ? null : rel;
  };
  const inProject = inside(where.projectRoot);
  if (inProject !== null) return inProject;
  const inHome = inside(where.homeDir);
  return inHome !== null ? `~/${inHome}` : clean;
}
