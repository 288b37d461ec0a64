import { rmSync } from 'node:fs';
import { readPrivateFile, writePrivateFile } from './private-file';
import { sessionStatePath } from './session-path';

/**
 * The resume a PreCompact rendered for a host that runs nothing after a compaction (GitHub
 * Copilot CLI: no SessionStart, and what was injected at session start is gone), kept beside the
 * session's state (`sessions/<id>.pending-context.json`) until that session's next prompt,
 * whose UserPromptSubmit injects it once.
 */
function pendingPath(runtimeDir: string, sessionId: string): string {
  return sessionStatePath(runtimeDir, sessionId).replace(/\.json$/, '.pending-context.json');
}

/** Leaves `text` for the session's next prompt, replacing any left before. Throws on an unwritable runtime dir. */
export function leavePendingContext(runtimeDir: string, sessionId: string, text: string, now: Date): void {
  writePrivateFile(pendingPath(runtimeDir, sessionId), `${JSON.stringify({ text, at: now.toISOString() })}\n`);
}

/**
 * Takes what a PreCompact left for this session: the text, removed so it is injected once;
 * null when there is none (one failed stat, the cost before every other prompt), or it is
 * unreadable or of another shape.
 */
export function takePendingContext(runtimeDir: string, sessionId: string): string | null {
  const path = pendingPath(runtimeDir, sessionId);
  const raw = readPrivateFile(path);
  if (raw === null) return null;
  rmSync(path, { force: true });
  try {
    const value = JSON.parse(raw) as { text?: unknown };
    return typeof value.text === 'string' && value.text !== '' ? value.text : null;
  } catch {
    return null;
  }
}
