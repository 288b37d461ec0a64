import type { BudgetPoints } from './thresholds';
import { formatTokens } from './token-count';

/**
 * The warning the next prompt carries once per window: the fill, the points, and what to do.
 * Only numbers reach the text, so nothing from a transcript can steer it.
 */
export function renderBudgetWarning(fill: number, points: BudgetPoints): string {
  return [
    `[git-capsule budget] The context holds about ${formatTokens(fill)} tokens: past the warning point ${formatTokens(points.warning)}.`,
    `${pointsLine(points)}`,
    'Finish the current step, then write the capsule with the context-capsule skill (objective, waiting_on, next_valid_action, what is done and what failed), and ask the user to run /clear. The capsule is handed back after /clear.',
  ].join('\n');
}

/** The Stop block's reason at the hard point: write the capsule now, then tell the user to run /clear. */
export function renderBudgetBlockReason(fill: number, points: BudgetPoints): string {
  return [
    `[git-capsule budget] The context holds about ${formatTokens(fill)} tokens: past the hard point ${formatTokens(points.hard)}.`,
    `${pointsLine(points)}`,
    'Write the capsule now with the context-capsule skill, before anything else. Then tell the user to run /clear; the capsule is handed back in the fresh window. Start no new work in this window.',
  ].join('\n');
}

function pointsLine(points: BudgetPoints): string {
  const native = points.native.autoCompact
    ? `the host compacts by itself at ${formatTokens(points.native.tokens)}`
    : `the window ends at ${formatTokens(points.native.tokens)} (automatic compaction is off)`;
  return `Warning ${formatTokens(points.warning)}, hard point ${formatTokens(points.hard)}, ${native}.`;
}

// The block's first line as renderBudgetBlockReason writes it; the warning names the warning point instead.
const BLOCK_LINE = /\[git-capsule budget\] The context holds about [0-9.km]+ tokens: past the hard point /;

/**
 * True when `text` carries the Stop block's reason, as the host hands it to the agent (after
 * `Stop hook feedback:`): the supervisor watches for it in the client's stream.
 */
export function isBudgetBlockReason(text: string): boolean {
  return BLOCK_LINE.test(text);
}
