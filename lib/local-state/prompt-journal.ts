import { rmSync } from 'node:fs';
import { redactSecrets } from '../redact/redact-secrets';
import { readPrivateFile, writePrivateFile } from './private-file';
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
 * the hook that runs before every prompt never rewrites the session's larger state. The prompt
 * is redacted before it is kept (a pasted key must not wait on disk for the next Stop), and the
 * file is private: atomic, mode 0600, never written through a link.
 */
export function recordPrompt(runtimeDir: string, sessionId: string, prompt: string): void {
  const kept = redactSecrets(prompt.slice(0, MAX_JOURNAL_PROMPT_CHARS)).text;
  const prompts = [...readPrompts(runtimeDir, sessionId), kept].slice(-MAX_JOURNAL_PROMPTS);
  writePrivateFile(journalPath(runtimeDir, sessionId), JSON.stringify(prompts));
}

/** The prompts recorded since the last fold, oldest first; none when the file is missing or unreadable. */
export function readPrompts(runtimeDir: string, sessionId: string): string[] {
  try {
    const text = readPrivateFile(journalPath(runtimeDir, sessionId));
    if (text === null) return [];
    const value = JSON.parse(text);
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** Empties the journal once a fold has read it. */
export function clearPrompts(runtimeDir: string, sessionId: string): void {
  rmSync(journalPath(runtimeDir, sessionId), { force: true });
}
