import { parseCreatedAt } from '../capsule/created-at';
import type { CandidateRow, RejectionReason } from './types';

/**
 * Whose capsule a resume may take (docs/format.md "Whose capsule a resume takes"). `lineage` comes from the host's
 * own signals (the session that was just cleared or compacted, and the ones before it in the
 * same client process); `here` is who and where this resume runs; `liveSessions` are sessions
 * other client processes on this machine run right now.
 */
export interface SelectionScope {
  lineage?: {
    /** Earlier sessions of this lineage, oldest first. */
    sessions: readonly string[];
    /** The capsule the lineage stands on (the one its last session resumed or wrote). */
    carried?: string;
    /** How the last session ended (`clear`, `compact`), for CAPSULE DATA. */
    reason?: string;
    /** The session resuming now: a consumption by it counts as the lineage's own (a hook registered twice). */
    self?: string;
  };
  here: { author?: string; machine?: string; worktree?: string; branch?: string };
  liveSessions: readonly string[];
  /** The session this resume runs inside (`git capsule resume` from the agent): its own capsules are live, and named as its own. */
  running?: string;
  /** A `created_at` later than now plus this never wins (clock skew between machines). */
  skewMs: number;
  /**
   * True when this clone sealed the document (lib/capsule/seal.ts, with this clone's key): the
   * lineage, worktree and author tiers take only such capsules, because identity fields are
   * published and can be copied.
   */
  sealedHere: (text: string) => boolean;
}

/** How far in the future a `created_at` may lie before it can no longer win: machines' clocks drift. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** Why a capsule is in scope, best first: its lineage, this worktree and branch, this author on this machine, a handoff to this author. */
export type ScopeTier = 'lineage' | 'worktree' | 'author' | 'handoff';
export const TIER_ORDER: readonly ScopeTier[] = ['lineage', 'worktree', 'author', 'handoff'];

/** Reasons a capsule is outside the scope: never resumed, never consumed, counted with who and where. */
export const SCOPE_REASONS: readonly RejectionReason[] = ['other-author', 'other-machine', 'live-session', 'no-identity', 'not-sealed', 'foreign-revision'];

/** A row's place: in scope at a tier, or out of it with the reason and who/where it came from. */
export type Placement = { tier: ScopeTier } | { reason: RejectionReason; detail: string; value?: string };

/** The identity fields placement reads, from the index row or the document's own frontmatter. */
export type ScopedRow = Pick<CandidateRow, 'id' | 'createdAt' | 'sessionId' | 'author' | 'machine' | 'worktree' | 'branch' | 'trigger' | 'handoffTo'> & {
  /** Whether this clone sealed the document; absent for an index row (unknown until its document is read). */
  sealed?: boolean;
};

/**
 * Places one capsule: a `created_at` beyond the clock skew never wins (whatever else it is);
 * the lineage's own capsules come first (unless they name another machine); another live
 * session's are never taken; a handoff addressed to this author is; without recorded identity,
 * or by another author, or from another machine, it stays where it is. A read document that
 * claims this clone without its seal (`sealed: false`) is in no tier of ours: named `not-sealed`
 * with who it says it is (the lineage's carried capsule, taken on purpose before, excepted).
 */
export function placeInScope(row: ScopedRow, scope: SelectionScope, now: Date): Placement {
  const stamp = parseCreatedAt(row.createdAt);
  if (stamp.ok && stamp.epochMs > now.getTime() + scope.skewMs) return { reason: 'future-created-at', detail: 'created_at lies in the future', value: row.createdAt };
  const here = scope.here;
  const elsewhere = row.machine !== undefined && here.machine !== undefined && row.machine !== here.machine;
  const lineage = scope.lineage;
  const unsealed = row.sealed === false;
  if (lineage && ((row.sessionId !== undefined && lineage.sessions.includes(row.sessionId)) || row.id === lineage.carried)) {
    // A session id is data a synced capsule could copy: the lineage's own capsules are sealed here.
    if ((!elsewhere && !unsealed) || row.id === lineage.carried) return { tier: 'lineage' };
  }
  if (row.sessionId !== undefined && scope.liveSessions.includes(row.sessionId)) return { reason: 'live-session', detail: row.sessionId === scope.running ? 'this session, still running' : 'another live session on this machine', value: origin(row, here) };
  if (row.trigger === 'handoff' && row.handoffTo !== undefined && here.author !== undefined && sameAuthor(row.handoffTo, here.author)) return { tier: 'handoff' };
  if (row.author === undefined || row.machine === undefined) return { reason: 'no-identity', detail: 'written before the writer was recorded', value: origin(row, here) };
  if (here.author === undefined || !sameAuthor(row.author, here.author)) return { reason: 'other-author', detail: 'written by', value: origin(row, here) };
  if (elsewhere || here.machine === undefined) return { reason: 'other-machine', detail: 'written by', value: origin(row, here) };
  // Every identity field can be copied from what we push: only the seal says this clone wrote it.
  if (unsealed) return { reason: 'not-sealed', detail: 'claims this clone without its seal', value: claimed(row) };
  return { tier: sameOrUnknown(row.worktree, here.worktree) && sameOrUnknown(row.branch, here.branch) ? 'worktree' : 'author' };
}

/**
 * Unknown is not different: a capsule that does not say its worktree or branch (a hand-written
 * document, an older writer) is not "another worktree or branch"; only a recorded value that
 * differs from this one (or that this resume cannot compare, on a detached HEAD) sets it aside.
 */
function sameOrUnknown(recorded: string | undefined, here: string | undefined): boolean {
  return recorded === undefined || recorded === here;
}

/** `alice@example.com on this machine` / `… synced from machine m-…` / `unknown author …`: who and where, for the ledger (rendered through inert()). */
export function origin(row: Pick<ScopedRow, 'author' | 'machine'>, here: SelectionScope['here']): string {
  const who = row.author ?? 'unknown author';
  if (row.machine === undefined) return `${who}, machine not recorded`;
  return row.machine === here.machine ? `${who} on this machine` : `${who}, synced from machine ${row.machine}`;
}

/** Who an unsealed capsule claims to be: the fields it copies, never "this machine". */
function claimed(row: Pick<ScopedRow, 'author' | 'machine'>): string {
  return `${row.author ?? 'unknown author'}, machine ${row.machine ?? 'not recorded'} (foreign: no seal of this clone)`;
}

/** Where a capsule was written, relative to this resume: this machine (only when sealed here), a sync, or unknown. */
export function originOf(machine: unknown, here: SelectionScope['here'], sealed: boolean): 'this-machine' | 'synced' | 'unknown' {
  if (typeof machine !== 'string') return 'unknown';
  return machine === here.machine && sealed ? 'this-machine' : 'synced';
}

/** Committer identities compare by email, case-insensitively (hosts and git tools differ in case). */
export function sameAuthor(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
