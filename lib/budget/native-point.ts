import { readBudgetSwitches } from './env-switches';
import { modelWindow } from './model-window';
import { configuredWindows } from './configured-windows';
import { describeValue, isRecord, positiveInt } from './input-guards';

/** Claude Code's output reserve ceiling: the reserve is min(the model's max output, this). */
export const OUTPUT_RESERVE_CAP = 20_000;
/** Claude Code's summary buffer between the effective window and its auto-compact threshold. */
export const SUMMARY_BUFFER = 13_000;

/** Everything the native point depends on, passed in as data (the caller did the I/O). */
export interface NativePointInputs {
  /** The model id of the main conversation (transcript, status line); null when unknown. */
  model: string | null;
  env: Readonly<Record<string, string | undefined>>;
  /** Claude's merged settings object (user < project < local); any shape, type-guarded here. */
  settings: unknown;
  /** The runtime ceiling from `git capsule budget cap`, in tokens; null or undefined when off. */
  capTokens?: number | null;
  /** A threshold the host reported itself, when one is known; any shape, type-guarded here. */
  reportedThreshold?: unknown;
  /** The model window the host reported (status line `context_window.context_window_size`). */
  reportedWindow?: unknown;
}

/** Which input decided the window the point is computed from. */
export type WindowSource = 'model' | 'host' | 'env' | 'settings' | 'settings-model' | 'cap';

/** The resolved native point and how it was reached. */
export interface NativePoint {
  /** Where the host compacts by itself (or, with auto-compaction off, where its window ends). */
  tokens: number;
  /** The window the point is computed from: model window clamped by configured windows and the cap. */
  window: number;
  windowSource: WindowSource;
  modelWindow: number;
  modelWindowSource: 'host' | 'catalog' | 'tag-1m' | 'default';
  outputReserve: number;
  /** `threshold` when the host reported one, else `computed`. */
  pointSource: 'threshold' | 'computed';
  /** The percent override applied, or null. */
  pctOverride: number | null;
  /** False when the host never compacts by itself: warnings stay, the automatic block goes. */
  autoCompact: boolean;
}

/** The result: a point, or why there is none (the caller logs once and skips). */
export type NativePointResult =
  | { status: 'ok'; point: NativePoint; notes: string[] }
  | { status: 'disabled'; switch: 'CAPSULE_DISABLED'; notes: string[] }
  | { status: 'suppressed'; switch: 'DISABLE_COMPACT'; notes: string[] }
  | { status: 'unresolvable'; reason: string; notes: string[]; pending?: true };

/**
 * Resolves Claude Code's native compaction point the way the host does (docs/hooks.md "Budgets"):
 * a reported threshold when there is one; otherwise window − min(max output, 20000) − 13000,
 * where the window is the model's, clamped by `CLAUDE_CODE_AUTO_COMPACT_WINDOW`,
 * `modelSettings.<model>.autoCompactWindow` and `autoCompactWindow` (the smallest wins) and by
 * the runtime cap. `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` only lowers the point. With auto-compaction
 * off the point is the window minus the output reserve and the percent override is ignored.
 * Never throws; each ignored input adds a note.
 *
 * @example
 * resolveNativePoint({ model: 'claude-sonnet-4-5', env: {}, settings: {} }) // tokens 167000
 */
export function resolveNativePoint(inputs: NativePointInputs): NativePointResult {
  const notes: string[] = [];
  const switches = readBudgetSwitches(inputs.env);
  if (switches.capsuleDisabled) return { status: 'disabled', switch: 'CAPSULE_DISABLED', notes };
  if (switches.compactDisabled) return { status: 'suppressed', switch: 'DISABLE_COMPACT', notes };
  const settings = isRecord(inputs.settings) ? inputs.settings : {};
  const autoCompact = !switches.autoCompactDisabled && settings.autoCompactEnabled !== false;

  const catalog = modelWindow(inputs.model);
  const reported = positiveInt(inputs.reportedWindow);
  if (inputs.reportedWindow !== undefined && inputs.reportedWindow !== null && reported === null) {
    notes.push(`ignored the host's reported window ${describeValue(inputs.reportedWindow)}: not a positive whole number`);
  }
  let window = reported ?? catalog.window;
  let windowSource: WindowSource = reported === null ? 'model' : 'host';
  const modelWindowTokens = window;

  for (const candidate of configuredWindows({ env: inputs.env, settings, model: inputs.model, autoCompact }, notes)) {
    if (candidate.tokens < window) {
      window = candidate.tokens;
      windowSource = candidate.source;
    }
  }
  const cap = inputs.capTokens ?? null;
  if (cap !== null) {
    if (positiveInt(cap) === null) notes.push(`ignored the runtime cap ${describeValue(cap)}: not a positive whole number`);
    else if (cap < window) {
      window = cap;
      windowSource = 'cap';
    }
  }

  const outputReserve = Math.min(maxOutputTokens(catalog.maxOutputTokens, inputs.env, notes), OUTPUT_RESERVE_CAP);
  const effective = window - outputReserve;
  const pct = autoCompact ? pctOverride(inputs.env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, notes) : null;
  const lowerByPct = (point: number) => (pct === null ? point : Math.min(point, Math.floor(effective * (pct / 100))));

  let tokens: number;
  let pointSource: NativePoint['pointSource'] = 'computed';
  const threshold = positiveInt(inputs.reportedThreshold);
  if (inputs.reportedThreshold !== undefined && inputs.reportedThreshold !== null && threshold === null) {
    notes.push(`ignored the host's reported threshold ${describeValue(inputs.reportedThreshold)}: not a positive whole number`);
  }
  if (!autoCompact) {
    tokens = effective;
  } else if (threshold !== null) {
    // A reported threshold can only be lowered: by a configured window or the cap, and by the percent override.
    const clamped = windowSource === 'model' || windowSource === 'host' ? threshold : Math.min(threshold, effective - SUMMARY_BUFFER);
    tokens = lowerByPct(clamped);
    pointSource = 'threshold';
  } else {
    tokens = lowerByPct(effective - SUMMARY_BUFFER);
  }
  if (!Number.isSafeInteger(tokens) || tokens <= 0) {
    return { status: 'unresolvable', reason: `the native point came out as ${tokens} tokens (window ${window}, reserve ${outputReserve})`, notes };
  }
  return {
    status: 'ok',
    notes,
    point: {
      tokens,
      window,
      windowSource,
      modelWindow: modelWindowTokens,
      modelWindowSource: reported === null ? catalog.source : 'host',
      outputReserve,
      pointSource,
      pctOverride: pct,
      autoCompact,
    },
  };
}

function maxOutputTokens(modelDefault: number, env: NativePointInputs['env'], notes: string[]): number {
  const raw = env.CLAUDE_CODE_MAX_OUTPUT_TOKENS;
  if (raw === undefined || raw.trim() === '') return modelDefault;
  const value = Number(raw.trim());
  if (!Number.isSafeInteger(value) || value <= 0) {
    notes.push(`ignored CLAUDE_CODE_MAX_OUTPUT_TOKENS=${JSON.stringify(raw)}: not a positive whole number`);
    return modelDefault;
  }
  return value;
}

function pctOverride(raw: string | undefined, notes: string[]): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  const pct = parseFloat(raw);
  // The host's own rule: a percent in (0, 100]; anything else is ignored.
  if (!(pct > 0 && pct <= 100)) {
    notes.push(`ignored CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${JSON.stringify(raw)}: expected a percent above 0 and at most 100`);
    return null;
  }
  return pct;
}
