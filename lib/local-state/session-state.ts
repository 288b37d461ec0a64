import { statSync } from 'node:fs';
import type { CapsuleDocument } from '../capsule/types';
import { redactDeep } from '../redact/redact-deep';
import { readPrivateFile, writePrivateFile } from './private-file';
import { STATE_FILES, statePath } from './state-files';
import { sessionStatePath } from './session-path';

/** A byte cursor into one session's transcript, with a fingerprint of the file's head. */
export interface TranscriptCursor {
  bytes: number;
  lines: number;
  /** A hash of the first `headLength` bytes (`fnv:`; never the bytes): a replaced file with the same size is detected. */
  head: string;
  headLength: number;
}

/** What the hooks remember per session between calls (runtime dir, never committed). */
export interface SessionState {
  cursor?: TranscriptCursor;
  /** The transcript the cursor points into (the last fold's), for the session after a /clear to check the cursor against. */
  transcriptPath?: string;
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

export { sessionStatePath } from './session-path';

/** Reads a session's state; a missing or unreadable file is an empty state (the hook starts over). */
export function readSessionState(runtimeDir: string, sessionId: string): SessionState {
  try {
    const value = JSON.parse(readPrivateFile(sessionStatePath(runtimeDir, sessionId)) ?? '{}');
    return value && typeof value === 'object' ? (value as SessionState) : {};
  } catch {
    return {};
  }
}

/**
 * Writes a session's state atomically (temp file + rename), so a killed hook never leaves half a
 * file; private (lib/local-state/private-file.ts) and redacted: it holds failure output carried
 * between turns, and nothing secret is kept where the hooks keep their state either. The two
 * documents are left as they are: each is a capsule as the memory branch holds it (the autosave
 * as the store committed it, through its one redacting write path; the seed as it was read from
 * the branch, already in this repository's objects, and redacted again by the autosave that
 * commits on top of it). Redacting them here again was the costliest step of a resume's
 * SessionStart (the redactor's first, cold run in the process: 5–15 ms of CPU). A file that
 * already holds the same text is left as it is.
 */
export function writeSessionState(runtimeDir: string, sessionId: string, state: SessionState): void {
  // The transcript's path is the host's, kept as given: redacted, a temp folder's random name
  // reads as a token, and the path would no longer name the file.
  const { autosaveDoc, seedDoc, transcriptPath, ...rest } = state;
  const kept = { ...(transcriptPath === undefined ? {} : { transcriptPath }), ...(autosaveDoc === undefined ? {} : { autosaveDoc }), ...(seedDoc === undefined ? {} : { seedDoc }) };
  const path = sessionStatePath(runtimeDir, sessionId);
  const text = JSON.stringify({ ...redactDeep(rest, { opaque: {} }).value, ...kept });
  // A fold with nothing new (a PreCompact right after a Stop) writes the same text back: reading it
  // costs less than a temp file and a rename (~1 ms of CPU). A file others can read is rewritten
  // (an older version's): the write makes it private.
  if (readPrivateFile(path) === text && (statSync(path).mode & 0o077) === 0) return;
  writePrivateFile(path, text);
}
