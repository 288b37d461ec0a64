import type { CapsuleDocument, Frontmatter } from '../capsule/types';

/**
 * One capsule as the store's index knows it. `status` is the derived status (the lattice
 * maximum of its status events), or whatever string a foreign writer left, or null when absent.
 */
export interface CandidateRow {
  id: string;
  path: string;
  status: string | null;
  /** `created_at` as the index recorded it; only used to order capsules whose text was not read. */
  createdAt?: string;
}

/**
 * A candidate for selection. `text` is the capsule document when it was read, null when the
 * store could not read its blob, and undefined when it was deliberately left unread (the store
 * reads only active capsules' texts, newest first, and stops at the first winner).
 */
export interface Candidate extends CandidateRow {
  text?: string | null;
}

/** Why a capsule was not selected. `already-consumed` and `superseded` are ordinary; the rest are defects until proven otherwise. */
export type RejectionReason =
  | 'already-consumed'
  | 'superseded'
  | 'not-active'
  | 'missing-required-field'
  | 'content-gate'
  | 'unparseable'
  | 'bad-created-at'
  | 'schema'
  | 'unreadable';

/** Reasons that are ordinary history rather than a capsule authored and then discarded. */
export const ORDINARY_REASONS: readonly RejectionReason[] = ['already-consumed', 'superseded'];

/**
 * One ledger entry. `detail` is built from our own vocabulary (field names, problem codes);
 * `value` is the capsule-controlled datum behind it (a status, a stamp), rendered only through inert().
 */
export interface Rejection {
  id: string;
  path: string;
  status: string | null;
  reason: RejectionReason;
  detail: string;
  value?: unknown;
  /** Set on an entry standing for this many capsules counted from the index without listing them (id and path are then empty). */
  count?: number;
}

/** Capsules of one consumed status counted from the index rather than listed, so selection stays cheap as history grows. */
export interface CountedStatus {
  status: string;
  count: number;
}

/** Why there is no winner. */
export type UnavailableReason =
  | 'no-memory-branch'
  | 'no-capsules'
  | 'all-candidates-rejected'
  | 'memory-branch-unreadable'
  | 'bad-memory-root'
  | 'capsule-not-found';

/** The selected capsule, parsed, with its creation instant. */
export interface SelectedCapsule {
  id: string;
  path: string;
  status: string;
  text: string;
  doc: CapsuleDocument;
  fields: Frontmatter;
  createdAtMs: number;
  /** `now - createdAtMs`: negative when the stamp lies in the future (clock skew). */
  ageMs: number;
}

/** What selection decided: a winner or why not, and every capsule it did not select. */
export interface Selection {
  capsule: SelectedCapsule | null;
  rejected: Rejection[];
  unavailable: { reason: UnavailableReason; detail?: string } | null;
}
