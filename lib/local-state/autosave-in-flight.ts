import { readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readPrivateFile, writePrivateFile } from './private-file';
import { isProcessAlive, processStartOf } from './process-liveness';
import { sessionStatePath } from './session-path';
import { STATE_FILES, statePath } from './state-files';

/**
 * A marker past this age is stale whatever its process: above the Stop registration's 10 s
 * timeout (hooks/hooks.json), after which the host has killed the hook anyway.
 */
export const IN_FLIGHT_STALE_MS = 15_000;

/** What Stop leaves while it folds and commits a session's autosave (`in-flight/<session>.json`). */
export interface InFlightMarker {
  sessionId: string;
  /** The hook's process, and when it started (pid reuse is told apart where the system says). */
  pid: number;
  start?: string;
  /** The client process's lineage key (`claude-<CLAUDE_PID>`), so a /clear waits only for its own client's autosave. */
  lineage: string | null;
  at: string;
}

/** The marker's path for one session. */
function markerPath(runtimeDir: string, sessionId: string): string {
  // The same file name as the session's state file (a hash for ids that are not plain).
  return statePath(runtimeDir, STATE_FILES.inFlight, basename(sessionStatePath(runtimeDir, sessionId)));
}

/**
 * Marks the session's autosave as in flight (written before the fold, removed by
 * `clearAutosaveInFlight` after its commit and cursor are saved). Throws on an unwritable
 * runtime dir (the caller logs it and folds anyway).
 */
export function markAutosaveInFlight(runtimeDir: string, marker: Omit<InFlightMarker, 'pid' | 'start'>): void {
  const start = processStartOf(process.pid);
  const value: InFlightMarker = { ...marker, pid: process.pid, ...(start === undefined ? {} : { start }) };
  writePrivateFile(markerPath(runtimeDir, marker.sessionId), `${JSON.stringify(value)}\n`);
}

/** Removes the session's marker; missing is fine. */
export function clearAutosaveInFlight(runtimeDir: string, sessionId: string): void {
  rmSync(markerPath(runtimeDir, sessionId), { force: true });
}

/**
 * The autosaves still in flight: markers whose process runs and which are younger than
 * `IN_FLIGHT_STALE_MS`; a marker a killed hook left is stale and ignored (its turn is folded
 * again by the next hook, whose cursor never moved). `only` narrows to one session or one lineage.
 */
export function autosavesInFlight(runtimeDir: string, now: Date, only: { sessionId?: string; lineage?: string | null } = {}): InFlightMarker[] {
  let names: string[];
  try {
    names = readdirSync(statePath(runtimeDir, STATE_FILES.inFlight));
  } catch {
    return [];
  }
  const live: InFlightMarker[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const marker = readMarker(join(statePath(runtimeDir, STATE_FILES.inFlight), name));
    if (marker === null) continue;
    if (only.sessionId !== undefined && marker.sessionId !== only.sessionId) continue;
    if (only.lineage !== undefined && only.lineage !== null && marker.lineage !== only.lineage) continue;
    const age = now.getTime() - Date.parse(marker.at);
    if (!(age < IN_FLIGHT_STALE_MS) || !isProcessAlive(marker.pid, marker.start)) continue;
    live.push(marker);
  }
  return live;
}

function readMarker(path: string): InFlightMarker | null {
  try {
    const v = JSON.parse(readPrivateFile(path) ?? 'null') as Partial<InFlightMarker> | null;
    if (!v || typeof v.sessionId !== 'string' || typeof v.pid !== 'number' || typeof v.at !== 'string') return null;
    return { sessionId: v.sessionId, pid: v.pid, ...(typeof v.start === 'string' ? { start: v.start } : {}), lineage: typeof v.lineage === 'string' ? v.lineage : null, at: v.at };
  } catch {
    return null;
  }
}
