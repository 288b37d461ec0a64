import { isHookWritten } from '../capsule/writer';
import type { SelectedCapsule } from './types';

/**
 * Orders valid capsules for selection: newest `created_at` first, except that a capsule a
 * session authored (the capsule skill, the budget block's request) goes before the hook-written
 * autosaves and checkpoints of that same session, however they are dated: the session's own
 * deliberate statement of its state beats a snapshot of its transcript (docs/work-state.md "Authored capsules").
 */
export function orderForSelection(valid: readonly SelectedCapsule[]): SelectedCapsule[] {
  const byDate = [...valid].sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const winner = byDate[0];
  if (winner === undefined || !isHookWritten(winner.fields)) return byDate;
  const session = winner.fields.session_id;
  if (typeof session !== 'string' || session === '') return byDate;
  const authored = byDate.find((c) => c.fields.session_id === session && !isHookWritten(c.fields));
  return authored === undefined ? byDate : [authored, ...byDate.filter((c) => c !== authored)];
}
