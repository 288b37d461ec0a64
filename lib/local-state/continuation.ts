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

/**
 * Re-bases a running session on capsule `capsuleId` it just loaded (`git capsule resume` run
 * inside it): whatever autosave it had, its next fold starts from `doc` (the loaded state) as a
 * new autosave naming `capsuleId` as parent, so the objective after its next /clear is the
 * loaded work, not what the session did before. Returns the autosave the session leaves behind
 * (the caller sets it aside), or null when it had none, it is the loaded capsule itself, or it
 * already goes on from the loaded capsule (then nothing changes). The transcript cursor stays:
 * what the session did before is not folded again.
 */
export function rebaseOn(runtimeDir: string, sessionId: string, capsuleId: string, doc: CapsuleDocument): string | null {
  const { autosaveId, autosaveDoc: _doc, ...state } = readSessionState(runtimeDir, sessionId);
  // Its autosave already goes on from that capsule (the resume after a /clear seeded it): it holds
  // the loaded state and the session's work since; starting over would drop that work.
  if (autosaveId !== undefined && state.parentCapsuleId === capsuleId) return null;
  writeSessionState(runtimeDir, sessionId, { ...state, parentCapsuleId: capsuleId, seedDoc: doc });
  return autosaveId === undefined || autosaveId === capsuleId ? null : autosaveId;
}
