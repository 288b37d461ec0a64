import type { CapsuleDocument } from '../capsule/types';
import { readSessionState, writeSessionState } from './session-state';

/**
 * Records that `sessionId` goes on from capsule `capsuleId`: its autosave names it as
 * `parent_capsule_id`, and, while the session has no autosave of its own yet, folds its events
 * on top of `doc` (the resumed state). `keepExisting` keeps a parent already recorded (a
 * compacted session keeps the checkpoint it was linked to). Writes only when something changed.
 */
export function continueFrom(runtimeDir: string, sessionId: string, capsuleId: string, doc: CapsuleDocument | undefined, opts: { keepExisting: boolean }): void {
  const state = readSessionState(runtimeDir, sessionId);
  const parentCapsuleId = opts.keepExisting && state.parentCapsuleId !== undefined ? state.parentCapsuleId : capsuleId;
  const seed = doc !== undefined && state.autosaveId === undefined ? { seedDoc: doc } : {};
  if (parentCapsuleId === state.parentCapsuleId && !('seedDoc' in seed)) return;
  writeSessionState(runtimeDir, sessionId, { ...state, parentCapsuleId, ...seed });
}
