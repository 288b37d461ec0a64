import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sessionStatePath } from './session-path';

/** How many prompts the journal keeps, and how much of each: it is read at the next Stop. */
export const MAX_JOURNAL_PROMPTS = 4;
export const MAX_JOURNAL_PROMPT_CHARS = 4000;

function journalPath(runtimeDir: string, sessionId: string): string {
  return sessionStatePath(runtimeDir, sessionId).replace(/\.json$/, '.prompts.json');
}

/**
 * Records a prompt at submit time (UserPromptSubmit), because the transcript can lag behind it:
 * the next fold reads the prompts the transcript does not hold yet. A small file of its own, so
 * the hook that runs before every prompt never rewrites the session's larger state. Atomic
 * (temp file + rename), private to the user (mode 0600).
 */
export function recordPrompt(runtimeDir: string, sessionId: string, prompt: string): void {
  const path = journalPath(runtimeDir, sessionId);
  const prompts = [...readPrompts(runtimeDir, sessionId), prompt.slice(0, MAX_JOURNAL_PROMPT_CHARS)].slice(-MAX_JOURNAL_PROMPTS);
  mkdirSync(join(runtimeDir, 'sessions'), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(prompts), { mode: 0o600 });
  renameSync(temp, path);
}

/** The prompts recorded since the last fold, oldest first; none when the file is missing or unreadable. */
export function readPrompts(runtimeDir: string, sessionId: string): string[] {
  try {
    const value = JSON.parse(readFileSync(journalPath(runtimeDir, sessionId), 'utf8'));
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** Empties the journal once a fold has read it. */
export function clearPrompts(runtimeDir: string, sessionId: string): void {
  rmSync(journalPath(runtimeDir, sessionId), { force: true });
}
