import { resolveNativePoint, type NativePointInputs } from './native-point';
import { deriveBudgetPoints, resolveMargins, type BudgetPoints, type MarginSources } from './thresholds';
import { isRecord } from './input-guards';

/** Every input of the budget points, as data. */
export interface BudgetInputs extends NativePointInputs {
  margins: MarginSources;
}

/** The points, or why there are none. */
export type BudgetResolution =
  | { status: 'ok'; points: BudgetPoints; notes: string[] }
  | { status: 'disabled'; switch: 'CAPSULE_DISABLED'; notes: string[] }
  | { status: 'suppressed'; switch: 'DISABLE_COMPACT'; notes: string[] }
  /**
   * `pending`: the inputs do not exist yet but will (a new Codex session counts no token before
   * its first answer): no budget this turn, and nothing to report.
   */
  | { status: 'unresolvable'; reason: string; notes: string[]; pending?: true };

/** A resolution kept in the runtime state with the key of the inputs it was computed from. */
export interface PointsCache {
  key: string;
  resolution: BudgetResolution;
}

// The env variables the resolution reads; any other variable changing must not invalidate the cache.
const ENV_KEYS = [
  'CAPSULE_DISABLED',
  'DISABLE_COMPACT',
  'DISABLE_AUTO_COMPACT',
  'CLAUDE_CODE_AUTO_COMPACT_WINDOW',
  'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE',
  'CLAUDE_CODE_MAX_OUTPUT_TOKENS',
] as const;

/**
 * Resolves the warning and hard points, reusing `cache` only when the model, the cap and every
 * threshold input match (context fill is not an input, so a new fill never invalidates it).
 * Never throws.
 *
 * @example
 * const { resolution, cache } = resolveBudget(inputs, state.pointsCache);
 */
export function resolveBudget(inputs: BudgetInputs, cache?: unknown): { resolution: BudgetResolution; cache: PointsCache; reused: boolean } {
  const key = budgetInputsKey(inputs);
  if (isCache(cache) && cache.key === key) return { resolution: cache.resolution, cache, reused: true };
  const resolution = resolveUncached(inputs);
  return { resolution, cache: { key, resolution }, reused: false };
}

/** The cache key: a canonical JSON of exactly the inputs the resolution reads. */
export function budgetInputsKey(inputs: BudgetInputs): string {
  const settings = isRecord(inputs.settings) ? inputs.settings : {};
  const env = Object.fromEntries(ENV_KEYS.map((k) => [k, inputs.env[k] ?? null]));
  const config = isRecord(inputs.margins.config) ? inputs.margins.config : {};
  const git = inputs.margins.gitConfig ?? {};
  return JSON.stringify([
    inputs.model,
    inputs.capTokens ?? null,
    inputs.reportedThreshold ?? null,
    inputs.reportedWindow ?? null,
    env,
    [settings.autoCompactEnabled ?? null, settings.autoCompactWindow ?? null, settings.modelSettings ?? null],
    [config.resetMarginTokens ?? null, config.warningRunwayTokens ?? null],
    [git['capsule.resetmargintokens'] ?? null, git['capsule.warningrunwaytokens'] ?? null],
  ]);
}

function resolveUncached(inputs: BudgetInputs): BudgetResolution {
  const native = resolveNativePoint(inputs);
  if (native.status !== 'ok') return native;
  const { margins, notes } = resolveMargins(inputs.margins);
  const allNotes = [...native.notes, ...notes];
  const derived = deriveBudgetPoints(native.point, margins);
  if (!derived.ok) return { status: 'unresolvable', reason: derived.reason, notes: allNotes };
  return { status: 'ok', points: derived.points, notes: allNotes };
}

function isCache(value: unknown): value is PointsCache {
  if (!isRecord(value) || typeof value.key !== 'string' || !isRecord(value.resolution)) return false;
  const status = value.resolution.status;
  if (status === 'ok') return isRecord(value.resolution.points) && typeof value.resolution.points.hard === 'number' && typeof value.resolution.points.warning === 'number';
  return status === 'disabled' || status === 'suppressed' || status === 'unresolvable';
}
