import { STATUSES, type CapsuleStatus } from '../capsule/types';
import { CapsuleError } from '../errors/capsule-error';

/** True when `value` is one of the lattice's statuses. */
export function isStatus(value: unknown): value is CapsuleStatus {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/** The position of a status in `active < paused < resumed < abandoned < resolved`. */
export function statusRank(status: CapsuleStatus): number {
  return STATUSES.indexOf(status);
}

/** The lattice maximum of the given statuses; unknown values are ignored, none gives `active`. */
export function maxStatus(statuses: Iterable<unknown>): CapsuleStatus {
  let best: CapsuleStatus = 'active';
  for (const s of statuses) if (isStatus(s) && statusRank(s) > statusRank(best)) best = s;
  return best;
}

/**
 * Refuses a move that would go backwards in the lattice (STATUS_BACKWARD, with from/to/reason):
 * a consumed capsule cannot be re-resumed; re-activating work is a new capsule naming the old
 * one as `parent_capsule_id`. Returns false when the status is already `to` (nothing to write).
 */
export function checkStatusMove(id: string, from: CapsuleStatus, to: CapsuleStatus): boolean {
  if (statusRank(to) < statusRank(from)) {
    const reason = `status never moves backwards (${STATUSES.join(' < ')}); to continue the work, write a new capsule with parent_capsule_id: ${id}`;
    throw new CapsuleError('STATUS_BACKWARD', `capsule ${id} is ${from}; refusing to set it to ${to}: ${reason}`, { id, from, to, reason });
  }
  return statusRank(to) > statusRank(from);
}
