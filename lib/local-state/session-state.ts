import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { CapsuleDocument } from '../capsule/types';
import { STATE_FILES, statePath } from './state-files';

/** A byte cursor into one session's transcript, with a fingerprint of the file's head. */
export interface TranscriptCursor {
  bytes: number;
  lines: number;
  /** The first `headLength` bytes (`b64:` and base64): a replaced file with the same size is detected. */
  head: string;
  headLength: number;
}

/** What the hooks remember per session between calls (runtime dir, never committed). */
export interface SessionState {
  cursor?: TranscriptCursor;
  /** The session's one autosave capsule. */
  autosaveId?: string;
  /** The autosave document this session last committed, so the next fold needs no git read. */
  autosaveDoc?: CapsuleDocument;
  /** The capsule this session continues from: the one it resumed, or its pre-compact checkpoint. */
  parentCapsuleId?: string;
  /**
   * The resumed capsule's document, until this session's first autosave: that autosave folds
   * its events on top of it (objective, waiting_on, next action, every section), so any
   * number of /clears in a row keeps the work.
   */
  seedDoc?: CapsuleDocument;
  /** What the extraction carries to the next delta (open failures, …); its shape is checked where it is read. */
  workCarry?: unknown;
  /** The pre-compact checkpoint this session wrote last (PostCompact folds the summary's state block into it). */
  checkpointId?: string;
}

/** The file that holds one session's state; ids that are not plain become a hash. */
export function sessionStatePath(runtimeDir: string, sessionId: string): string {
  if (/^[A-Za-z0-9_-]{1,100}$/.test(sessionId)) return statePath(runtimeDir, STATE_FILES.sessions, `${sessionId}.json`);
  // Loaded only here: host session ids are plain, and node:crypto costs ~5 ms at every hook start.
  // A lazy require: this module must not load at start.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const name = createHash('sha1').update(sessionId).digest('hex');
  return statePath(runtimeDir, STATE_FILES.sessions, `${name}.json`);
}

/** Reads a session's state; a missing or unreadable file is an empty state (the hook starts over). */
export function readSessionState(runtimeDir: string, sessionId: string): SessionState {
  try {
    const value = JSON.parse(readFileSync(sessionStatePath(runtimeDir, sessionId), 'utf8'));
    return value && typeof value === 'object' ? (value as SessionState) : {};
  } catch {
    return {};
  }
}

/** Writes a session's state atomically (temp file + rename), so a killed hook never leaves half a file. */
export function writeSessionState(runtimeDir: string, sessionId: string, state: SessionState): void {
  const path = sessionStatePath(runtimeDir, sessionId);
  mkdirSync(statePath(runtimeDir, STATE_FILES.sessions), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(state));
  renameSync(temp, path);
}
