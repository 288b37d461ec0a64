import type { NativePoint } from './native-point';
import { isRecord } from './input-guards';

/** Default tokens between the native point and the hard point. */
export const DEFAULT_RESET_MARGIN_TOKENS = 8192;
/** Default tokens between the warning point and the hard point (`warningRunwayTokens`, docs/hooks.md "Budgets"). */
export const DEFAULT_WARNING_RUNWAY_TOKENS = 16384;
/** Largest margin accepted; mirrors `maximum` in schemas/config.schema.json. */
export const MAX_MARGIN_TOKENS = 1_000_000;

/** The two margin keys, spelled as in `.capsule/config.json` and `git config capsule.<key>`. */
export const MARGIN_KEYS = ['resetMarginTokens', 'warningRunwayTokens'] as const;
export type MarginKey = (typeof MARGIN_KEYS)[number];

/** Where each margin came from. */
export type MarginSource = 'default' | 'config' | 'git-config';

/** The margins in force. */
export interface Margins {
  resetMarginTokens: number;
  warningRunwayTokens: number;
  from: Record<MarginKey, MarginSource>;
}

/** Raw margin inputs: the parsed config file and `git config capsule.*` values (keys lower-cased by git). */
export interface MarginSources {
  config?: unknown;
  gitConfig?: Readonly<Record<string, string | undefined>>;
}

/**
 * Picks each margin from `.capsule/config.json`, then `git config capsule.<key>`, then the
 * default. A value that is not a whole number in [0, 1000000] is ignored with a note, and the
 * next source is tried. Never throws.
 */
export function resolveMargins(sources: MarginSources): { margins: Margins; notes: string[] } {
  const notes: string[] = [];
  const config = isRecord(sources.config) ? sources.config : {};
  const pick = (key: MarginKey, fallback: number): [number, MarginSource] => {
    if (config[key] !== undefined) {
      if (isMargin(config[key])) return [config[key] as number, 'config'];
      notes.push(`ignored ${key} ${JSON.stringify(config[key])} in .capsule/config.json: expected a whole number from 0 to ${MAX_MARGIN_TOKENS}`);
    }
    const raw = sources.gitConfig?.[`capsule.${key.toLowerCase()}`];
    if (raw !== undefined) {
      const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
      if (isMargin(value)) return [value, 'git-config'];
      notes.push(`ignored git config capsule.${key}=${JSON.stringify(raw)}: expected a whole number from 0 to ${MAX_MARGIN_TOKENS}`);
    }
    return [fallback, 'default'];
  };
  const [reset, resetFrom] = pick('resetMarginTokens', DEFAULT_RESET_MARGIN_TOKENS);
  const [runway, runwayFrom] = pick('warningRunwayTokens', DEFAULT_WARNING_RUNWAY_TOKENS);
  return { margins: { resetMarginTokens: reset, warningRunwayTokens: runway, from: { resetMarginTokens: resetFrom, warningRunwayTokens: runwayFrom } }, notes };
}

/** The warning and hard points derived from the native point. */
export interface BudgetPoints {
  native: NativePoint;
  /** native − resetMarginTokens: the Stop hook asks for the capsule here. */
  hard: number;
  /** hard − warningRunwayTokens: the next prompt carries the warning from here. */
  warning: number;
  margins: Margins;
  /** False when auto-compaction is off: warnings stay, the automatic block goes. */
  blockEnabled: boolean;
}

/**
 * Derives hard = native − resetMarginTokens and warning = hard − warningRunwayTokens. Margins so
 * large that a point is not positive leave the budget unresolvable (the caller logs once, skips).
 */
export function deriveBudgetPoints(native: NativePoint, margins: Margins): { ok: true; points: BudgetPoints } | { ok: false; reason: string } {
  const hard = native.tokens - margins.resetMarginTokens;
  const warning = hard - margins.warningRunwayTokens;
  if (warning <= 0) {
    return { ok: false, reason: `the margins (${margins.resetMarginTokens} + ${margins.warningRunwayTokens}) leave no room below the native point ${native.tokens}` };
  }
  return { ok: true, points: { native, hard, warning, margins, blockEnabled: native.autoCompact } };
}

/** True when the value is a margin the schema accepts. */
export function isMargin(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_MARGIN_TOKENS;
}
