import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Appends lines to `<runtimeDir>/errors.log`, each starting with its code (the same format the
 * hooks write). Best effort: the resume text already carries every diagnostic, so a failed log
 * write must not fail the resume.
 */
export async function appendErrorLines(runtimeDir: string | null, entries: ReadonlyArray<{ code: string; message: string }>, ctx: { now: Date; event: string }): Promise<void> {
  if (runtimeDir === null || entries.length === 0) return;
  const text = entries.map((e) => `${e.code} ${ctx.now.toISOString()} ${ctx.event} ${e.message.replace(/[\r\n\u2028\u2029\u0085]+/g, ' ')}\n`).join('');
  try {
    mkdirSync(runtimeDir, { recursive: true });
    appendFileSync(join(runtimeDir, 'errors.log'), text);
  } catch {
    // The text returned to the session names every one of these lines; the log is a second copy.
  }
}
