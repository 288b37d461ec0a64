import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writePrivateFile } from './private-file';
import { STATE_FILES, statePath } from './state-files';

/**
 * The coordination state file a supervisor writes for its client when the user declared none
 * (`<runtime dir>/supervise/<pid>.json`): one per supervisor process, so two supervised
 * sessions in one repository never read each other's phase.
 */
export function ownCoordinationPath(runtimeDir: string, pid: number): string {
  return statePath(runtimeDir, STATE_FILES.supervise, `${pid}.json`);
}

/** Reads a coordination state file as a JSON object; null when missing, unreadable or not an object. */
export function readCoordinationState(path: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Writes a coordination state file atomically (a temporary file renamed over it), so the
 * SessionStart hook reading it at the same moment sees the old phase or the new one, never half.
 * The supervisor's own file (`own`: under the runtime dir) goes through the private writer (0600,
 * never through a link), like every runtime-state file; a file the user declared stays where and
 * as they keep it, since other conductors share it. Throws STATE_FILE_UNSAFE (own).
 */
export function writeCoordinationState(path: string, value: Record<string, unknown>, opts: { own: boolean }): void {
  if (opts.own) return writePrivateFile(path, `${JSON.stringify(value)}\n`);
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value)}\n`);
  renameSync(temp, path);
}

/** Removes a coordination state file; missing is fine. */
export function removeCoordinationState(path: string): void {
  rmSync(path, { force: true });
}
