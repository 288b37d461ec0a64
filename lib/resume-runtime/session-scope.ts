import { readLineage, readLiveSessions, takeLineage, type Lineage } from '../local-state/lineage-record';
import type { LineageSignal } from '../local-state/lineage-signal';
import { CLOCK_SKEW_MS, placeInScope, TIER_ORDER, type ScopedRow, type ScopeTier, type SelectionScope } from '../select/scope';

/** What decides whose capsules a session may load: its lineage signal and id, and who and where it runs. */
export interface SessionScopeOptions {
  runtimeDir: string | null;
  signal: LineageSignal | null;
  /** The session's id as the host gave it; anything but a non-empty string counts as none. */
  sessionId: unknown;
  /**
   * `take`: SessionStart(clear|compact) takes the hand-over the ended session left; `read`: the
   * session runs now (a verb from its shell, its startup orientation); absent: no lineage.
   */
  lineage?: 'take' | 'read';
  now: Date;
  /** Who and where: the store's writer identity and this worktree's branch. */
  here: SelectionScope['here'];
  /** Whether this clone sealed a document (the store's seal check): the tiers of ours take only sealed capsules. */
  sealedHere: SelectionScope['sealedHere'];
}

/**
 * Whose capsule a session may take: the lineage from the host's signal (taken from the
 * hand-over at SessionStart, read inside a running session), who and where it runs, and the
 * sessions other live client processes run (their whole lineages). Inside a running session its
 * own capsules are live too: a session never resumes itself.
 */
export function sessionScope(o: SessionScopeOptions): { scope: SelectionScope; lineage: Lineage | null } {
  const sessionId = typeof o.sessionId === 'string' && o.sessionId !== '' ? o.sessionId : undefined;
  let lineage: Lineage | null = null;
  if (o.runtimeDir !== null && o.lineage === 'take' && sessionId !== undefined) lineage = takeLineage(o.runtimeDir, o.signal, sessionId, o.now);
  else if (o.runtimeDir !== null && o.lineage === 'read') lineage = readLineage(o.runtimeDir, o.signal);
  // Inside a running session (`read`), the lineage is the sessions before it: its own capsules are
  // a live session's, never resumed into itself.
  if (lineage && o.lineage === 'read') lineage = { ...lineage, sessions: lineage.sessions.filter((s) => s !== sessionId) };
  const own = new Set(lineage?.sessions ?? []);
  const live = o.runtimeDir === null ? [] : readLiveSessions(o.runtimeDir, o.signal, o.now).filter((s) => !own.has(s) && s !== sessionId);
  if (o.lineage === 'read' && sessionId !== undefined) live.push(sessionId);
  const scope: SelectionScope = {
    here: o.here,
    liveSessions: live,
    ...(o.lineage === 'read' && sessionId !== undefined ? { running: sessionId } : {}),
    skewMs: CLOCK_SKEW_MS,
    sealedHere: o.sealedHere,
    ...(lineage ? { lineage: { sessions: lineage.sessions, reason: lineage.reason, ...(lineage.carried ? { carried: lineage.carried } : {}), ...(sessionId ? { self: sessionId } : {}) } } : {}),
  };
  return { scope, lineage };
}

/**
 * The index row a resume in this scope would look at first: the best tier, newest within it
 * (rows come newest first), judged from the row alone; null when none is in scope. For the
 * startup orientation, which must not point at a capsule the resume would not take.
 */
export function firstInScope<R extends ScopedRow>(rows: readonly R[], scope: SelectionScope, now: Date): { row: R; tier: ScopeTier } | null {
  let best: { row: R; tier: ScopeTier } | null = null;
  for (const row of rows) {
    const placed = placeInScope(row, scope, now);
    if (!('tier' in placed)) continue;
    if (best === null || TIER_ORDER.indexOf(placed.tier) < TIER_ORDER.indexOf(best.tier)) best = { row, tier: placed.tier };
  }
  return best;
}
