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
  /** Who and where it was written, as the index recorded it (the document's own fields are checked again once read). */
  sessionId?: string;
  author?: string;
  machine?: string;
  worktree?: string;
  branch?: string;
  trigger?: string;
  /** The author a `trigger: handoff` capsule is addressed to. */
  handoffTo?: string;
}

/**
 * A candidate for selection. `text` is the capsule document when it was read, null when the
 * store could not read its blob, and undefined when it was deliberately left unread (the store
 * reads only active capsules' texts, newest first, and stops at the first winner).
 */
export interface Candidate extends CandidateRow {
  text?: string | null;
  /**
   * The capsule the lineage stands on, already consumed by the lineage's own last session (which
   * then saved nothing): selectable for that lineage only, never for anyone else.
   */
  passThrough?: true;
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
  | 'unreadable'
  | 'future-created-at'
  | 'other-author'
  | 'other-machine'
  | 'live-session'
  | 'no-identity'
  | 'not-sealed'
  | 'foreign-revision'
  | 'not-indexed';

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
  /**
   * For a capsule that is not this clone's (another author or machine, no seal): git's own check
   * of the signature on the commit that brought it in (`%G?` G is verified), and the signer git
   * names, rendered only through inert(). Absent when it was not checked.
   */
  signature?: { verified: boolean; status: string; signer: string | null };
}

/**
 * Capsules counted from the index rather than listed, so selection stays cheap as history grows:
 * consumed ones by status, and (with `unread`) active ones older than every capsule read, which
 * are superseded whenever a newer one is selected.
 */
export interface CountedStatus {
  status: string;
  count: number;
  /** Active capsules older than the ones read: superseded when there is a winner. */
  unread?: boolean;
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
  /** Why it was in scope: its lineage, this worktree, this author, a handoff; `any` when selection was not scoped (`--id`). */
  basis: SelectionBasis;
  /** Written on this machine, or arrived by a sync, or written before the machine was recorded. */
  origin: 'this-machine' | 'synced' | 'unknown';
  /** Selected as the lineage's pass-through (already consumed by the lineage's own last session). */
  passThrough?: true;
}

/** Why the selected capsule was the one: a scope tier, or `any` when selection was not scoped. */
export type SelectionBasis = 'lineage' | 'worktree' | 'author' | 'handoff' | 'any';

/** What selection decided: a winner or why not, and every capsule it did not select. */
export interface Selection {
  capsule: SelectedCapsule | null;
  /** The lineage selection looked for (its sessions, oldest first), when the host gave one. */
  lineage?: { sessions: readonly string[]; reason: string };
  rejected: Rejection[];
  unavailable: { reason: UnavailableReason; detail?: string } | null;
}
