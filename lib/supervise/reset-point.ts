import type { BudgetResolution } from '../budget/resolve-budget';
import { parseTokenCount } from '../budget/token-count';

/** Where the supervisor resets: a point of the budget policy, or a token count the user chose. */
export type ResetPointSpec = { kind: 'hard' } | { kind: 'warning' } | { kind: 'tokens'; tokens: number };

/** The reset point in tokens for one resolution, or why there is none. */
export type ResetPoint =
  | { ok: true; tokens: number; name: 'hard point' | 'warning point' | 'reset point' }
  | { ok: false; why: string };

/**
 * Reads `--reset-at`: `hard` (the default), `warning`, or a token count (`150000`, `150k`).
 * Returns null for anything else.
 */
export function parseResetPoint(text: string): ResetPointSpec | null {
  if (text === 'hard' || text === 'warning') return { kind: text };
  const parsed = parseTokenCount(text);
  return parsed.ok && parsed.tokens > 0 ? { kind: 'tokens', tokens: parsed.tokens } : null;
}

/**
 * The reset point for a budget resolution, by the budget policy's own rules (docs/hooks.md "Budgets"):
 * CAPSULE_DISABLED and DISABLE_COMPACT mean no reset at all, not even at a chosen count; with
 * automatic compaction off the policy makes no automatic clear, so only a chosen count resets;
 * an unresolvable budget leaves only a chosen count.
 */
export function resolveResetPoint(spec: ResetPointSpec, resolution: BudgetResolution | null): ResetPoint {
  if (resolution?.status === 'disabled') return { ok: false, why: 'CAPSULE_DISABLED is set: git-capsule is off' };
  if (resolution?.status === 'suppressed') return { ok: false, why: 'DISABLE_COMPACT is set: the budget policy makes no reset' };
  if (spec.kind === 'tokens') return { ok: true, tokens: spec.tokens, name: 'reset point' };
  if (resolution === null) return { ok: false, why: 'the budget points are not known yet' };
  if (resolution.status === 'unresolvable') return { ok: false, why: `the budget points are unresolvable (${resolution.reason}); pass --reset-at <tokens> to reset anyway` };
  const points = resolution.points;
  if (!points.blockEnabled) return { ok: false, why: 'automatic compaction is off, and with it the policy makes no automatic clear; pass --reset-at <tokens> to reset anyway' };
  return spec.kind === 'hard'
    ? { ok: true, tokens: points.hard, name: 'hard point' }
    : { ok: true, tokens: points.warning, name: 'warning point' };
}
