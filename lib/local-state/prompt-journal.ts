import { rmSync } from 'node:fs';
import { procTable } from '../git/process-table';
import { redactKeptText } from '../redact/redact-secrets';
import { appendPrivateFile, readPrivateFile, writePrivateFile } from './private-file';
import { sessionStatePath } from './session-path';

/**
 * When a hook's process started: the kernel's start tick where the system reports one (/proc,
 * the order in which the client forked its hooks) and node's time origin otherwise.
 */
export interface ProcessStamp {
  tick?: string;
  origin: number;
}

/** This process's stamp: one small read of /proc where there is one (never a `ps`: it runs before every prompt). */
export function thisProcessStamp(): ProcessStamp {
  const tick = procTable().read(process.pid)?.start; // no /proc: node's time origin orders the hooks
  return { ...(tick !== undefined && /^\d+$/.test(tick) ? { tick } : {}), origin: performance.timeOrigin };
}

/** Whether `a` started after `b` (by ticks when both have one; the same tick is not after). */
function startedAfter(a: ProcessStamp, b: ProcessStamp): boolean {
  if (a.tick !== undefined && b.tick !== undefined) return Number(a.tick) > Number(b.tick);
  return a.origin > b.origin;
}

interface JournalEntry {
  prompt: string;
  stamp?: ProcessStamp;
}

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
export function recordPrompt(runtimeDir: string, sessionId: string, prompt: string, stamp?: ProcessStamp): void {
  // Redacted whole, then cut: a secret straddling the cut would lose the length its rule needs
  // and keep its head (issue 36). The text is kept, so opaque tokens are masked too.
  const kept = redactKeptText(prompt).text.slice(0, MAX_JOURNAL_PROMPT_CHARS);
  const entry: JournalEntry = { prompt: kept, ...(stamp === undefined ? {} : { stamp }) };
  const path = journalPath(runtimeDir, sessionId);
  const text = readPrivateFile(path);
  if (text === null || (text.length < MAX_JOURNAL_BYTES && !text.startsWith('['))) {
    try {
      // After a write cut short, a new line first, so this prompt is not glued to the broken one.
      appendPrivateFile(path, `${text?.endsWith('\n') === false ? '\n' : ''}${entryLine(entry)}`);
      return;
    } catch {
      // A link or something else in its place: the rewrite below replaces it.
    }
  }
  writePrivateFile(path, [...parseJournal(text), entry].slice(-MAX_JOURNAL_PROMPTS).map(entryLine).join(''));
}

/**
 * The prompts recorded since the last fold, oldest first; none when the file is missing or
 * unreadable. `upTo`: only those whose hook process started no later than that one (a Stop in
 * the background must not fold the next turn's prompt, submitted after it started, into the
 * turn it folds: the turn's closing question would then outlive the answer to it).
 */
export function readPrompts(runtimeDir: string, sessionId: string, upTo?: ProcessStamp): string[] {
  return parseJournal(readPrivateFile(journalPath(runtimeDir, sessionId)))
    .slice(-MAX_JOURNAL_PROMPTS)
    .filter((e) => upTo === undefined || e.stamp === undefined || !startedAfter(e.stamp, upTo))
    .map((e) => e.prompt);
}

/** A plain JSON string without a stamp (the older form), else the entry as an object. */
function entryLine(e: JournalEntry): string {
  return `${JSON.stringify(e.stamp === undefined ? e.prompt : { prompt: e.prompt, ...e.stamp })}\n`;
}

/** One prompt per line; a line that does not parse (a write cut short) is skipped. The one-array form is still read. */
function parseJournal(text: string | null): JournalEntry[] {
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
  return values.flatMap((v): JournalEntry[] => {
    if (typeof v === 'string') return [{ prompt: v }];
    const o = v as { prompt?: unknown; tick?: unknown; origin?: unknown } | null;
    if (typeof o !== 'object' || o === null || typeof o.prompt !== 'string' || typeof o.origin !== 'number') return [];
    return [{ prompt: o.prompt, stamp: { ...(typeof o.tick === 'string' ? { tick: o.tick } : {}), origin: o.origin } }];
  });
}

/**
 * Empties the journal once a fold has read it; with `upTo`, keeps the prompts recorded by a
 * hook that started after that one (the next turn's, for its own fold).
 */
export function clearPrompts(runtimeDir: string, sessionId: string, upTo?: ProcessStamp): void {
  const path = journalPath(runtimeDir, sessionId);
  const later = upTo === undefined ? [] : parseJournal(readPrivateFile(path)).filter((e) => e.stamp !== undefined && startedAfter(e.stamp, upTo));
  if (later.length === 0) rmSync(path, { force: true });
  else writePrivateFile(path, later.map(entryLine).join(''));
}
