import { rmSync } from 'node:fs';
import { redactKeptText } from '../redact/redact-secrets';
import { appendPrivateFile, readPrivateFile, writePrivateFile } from './private-file';
import { sessionStatePath } from './session-path';

/** How many prompts the journal keeps, and how much of each: it is read at the next Stop. */
export const MAX_JOURNAL_PROMPTS = 4;
export const MAX_JOURNAL_PROMPT_CHARS = 4000;
/** Past this size the journal is rewritten down to its last MAX_JOURNAL_PROMPTS (prompts without a Stop between them). */
export const MAX_JOURNAL_BYTES = 64 * 1024;

function journalPath(runtimeDir: string, sessionId: string): string {
  return sessionStatePath(runtimeDir, sessionId).replace(/\.json$/, '.prompts.json');
}

/**
 * Records a prompt at submit time (UserPromptSubmit), because the transcript can lag behind it:
 * the next fold reads the prompts the transcript does not hold yet. A small file of its own, so
 * the hook that runs before every prompt never rewrites the session's larger state. The prompt
 * is redacted before it is kept (a pasted key must not wait on disk for the next Stop), and the
 * file is private: mode 0600, never written through a link.
 *
 * One JSON string per line, appended: a rename over the old file costs ~1-2 ms on ext4 (it
 * forces the new blocks out), an append ~0.05 ms, and this runs before every prompt. The file is
 * rewritten (temp file and rename) only past MAX_JOURNAL_BYTES, when it holds the older
 * one-array form, or when it is not a file we can append to (a link planted in its place is
 * replaced, never written through).
 */
export function recordPrompt(runtimeDir: string, sessionId: string, prompt: string): void {
  // Redacted whole, then cut: a secret straddling the cut would lose the length its rule needs
  // and keep its head (issue 36). The text is kept, so opaque tokens are masked too.
  const kept = redactKeptText(prompt).text.slice(0, MAX_JOURNAL_PROMPT_CHARS);
  const path = journalPath(runtimeDir, sessionId);
  const text = readPrivateFile(path);
  if (text === null || (text.length < MAX_JOURNAL_BYTES && !text.startsWith('['))) {
    try {
      // After a write cut short, a new line first, so this prompt is not glued to the broken one.
      appendPrivateFile(path, `${text?.endsWith('\n') === false ? '\n' : ''}${JSON.stringify(kept)}\n`);
      return;
    } catch {
      // A link or something else in its place: the rewrite below replaces it.
    }
  }
  writePrivateFile(path, [...parseJournal(text), kept].slice(-MAX_JOURNAL_PROMPTS).map((p) => `${JSON.stringify(p)}\n`).join(''));
}

/** The prompts recorded since the last fold, oldest first; none when the file is missing or unreadable. */
export function readPrompts(runtimeDir: string, sessionId: string): string[] {
  return parseJournal(readPrivateFile(journalPath(runtimeDir, sessionId))).slice(-MAX_JOURNAL_PROMPTS);
}

/** One prompt per line; a line that does not parse (a write cut short) is skipped. The one-array form is still read. */
function parseJournal(text: string | null): string[] {
  if (text === null) return [];
  const values: unknown[] = [];
  for (const line of text.startsWith('[') ? [text] : text.split('\n')) {
    if (line === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      values.push(...(Array.isArray(value) ? value : [value]));
    } catch {
      // skipped
    }
  }
  return values.filter((p): p is string => typeof p === 'string');
}

/** Empties the journal once a fold has read it. */
export function clearPrompts(runtimeDir: string, sessionId: string): void {
  rmSync(journalPath(runtimeDir, sessionId), { force: true });
}
