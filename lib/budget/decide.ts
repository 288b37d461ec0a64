import type { BudgetPoints } from './thresholds';

/** Which context window has already had its warning and its block (null: none yet). */
export interface BudgetFlags {
  warnedWindow: string | null;
  blockedWindow: string | null;
}

/** The hook events the budget acts on. */
export type BudgetEvent = 'UserPromptSubmit' | 'Stop';

/** What one hook call knows. */
export interface DecideBudgetInput {
  /** Context fill in tokens, or null when the transcript gave none. */
  fill: number | null;
  /** The resolved points, or null when unresolvable, disabled or suppressed. */
  points: BudgetPoints | null;
  flags: BudgetFlags;
  /** The current context window (`<session>:<ordinal>`; a clear or compaction starts a new one). */
  windowId: string;
  /** Stop's `stop_hook_active`: the turn already continues because of a Stop block. */
  stopHookActive: boolean;
  event: BudgetEvent;
}

/** The decision and the flags to store afterwards. */
export interface BudgetDecision {
  action: 'warn' | 'block' | 'none';
  /** Why nothing happens, for logs and tests. */
  why?: 'NO_FILL' | 'NO_POINTS' | 'BELOW_POINT' | 'ALREADY_DONE' | 'STOP_HOOK_ACTIVE' | 'BLOCK_DISABLED' | 'NOT_THIS_EVENT';
  flags: BudgetFlags;
}

/**
 * Decides the budget action for one hook call (docs/hooks.md "Budgets"): UserPromptSubmit warns once per
 * window from the warning point; Stop blocks once per window from the hard point, never while
 * `stop_hook_active` is true and never when auto-compaction is off. A block also counts as the
 * window's warning. Flags are compared with the window id, so a new window starts clean.
 *
 * @example
 * decideBudget({ fill: 170000, points, flags, windowId: 's1:0', stopHookActive: false, event: 'Stop' })
 */
export function decideBudget(input: DecideBudgetInput): BudgetDecision {
  const { fill, points, flags, windowId } = input;
  const none = (why: BudgetDecision['why']): BudgetDecision => ({ action: 'none', why, flags });
  if (fill === null) return none('NO_FILL');
  if (points === null) return none('NO_POINTS');
  if (input.event === 'UserPromptSubmit') {
    if (fill < points.warning) return none('BELOW_POINT');
    if (flags.warnedWindow === windowId) return none('ALREADY_DONE');
    return { action: 'warn', flags: { ...flags, warnedWindow: windowId } };
  }
  if (input.event !== 'Stop') return none('NOT_THIS_EVENT');
  // A Stop that fires because our own block made the turn go on must let the turn end.
  if (input.stopHookActive) return none('STOP_HOOK_ACTIVE');
  if (!points.blockEnabled) return none('BLOCK_DISABLED');
  if (fill < points.hard) return none('BELOW_POINT');
  if (flags.blockedWindow === windowId) return none('ALREADY_DONE');
  return { action: 'block', flags: { warnedWindow: windowId, blockedWindow: windowId } };
}
