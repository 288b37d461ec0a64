import { modelWindow } from './model-window';
import { parseTokenCount } from './token-count';
import { describeValue, isRecord, positiveInt } from './input-guards';

/** The smallest auto-compact window Claude Code accepts; smaller env values read as this. */
export const MIN_AUTO_COMPACT_WINDOW = 100_000;

/** One configured auto-compact window and where it was set. */
export interface WindowCandidate {
  tokens: number;
  source: 'env' | 'settings' | 'settings-model';
}

/**
 * The auto-compact windows configured for the model: `CLAUDE_CODE_AUTO_COMPACT_WINDOW` (k/m
 * suffixes; below 100000 reads as 100000, as the host reads it), and, while auto-compaction is
 * on, `autoCompactWindow` and `modelSettings.<model>.autoCompactWindow` from the merged settings.
 * The caller takes the smallest (docs/hooks.md "Budgets"); Claude Code 2.1.332 itself lets the env
 * window win over settings, so where the two differ this warns earlier, never later.
 * Each ignored value adds a note.
 */
export function configuredWindows(
  inputs: { env: Readonly<Record<string, string | undefined>>; settings: Record<string, unknown>; model: string | null; autoCompact: boolean },
  notes: string[],
): WindowCandidate[] {
  const { settings, autoCompact } = inputs;
  const out: WindowCandidate[] = [];
  const raw = inputs.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW;
  if (raw !== undefined && raw.trim() !== '') {
    const parsed = parseTokenCount(raw);
    if (!parsed.ok || parsed.tokens < 1) notes.push(`ignored CLAUDE_CODE_AUTO_COMPACT_WINDOW=${JSON.stringify(raw)}: not a token count`);
    // The host reads a window below its minimum as the minimum.
    else out.push({ tokens: Math.max(parsed.tokens, MIN_AUTO_COMPACT_WINDOW), source: 'env' });
  }
  // The host ignores settings windows while auto-compaction is off; the env window still applies.
  if (!autoCompact) return out;
  const top = settingsWindow(settings.autoCompactWindow, 'autoCompactWindow', notes);
  if (top !== null) out.push({ tokens: top, source: 'settings' });
  const perModel = modelSettingsWindow(settings.modelSettings, inputs.model, notes);
  if (perModel !== null) out.push({ tokens: perModel, source: 'settings-model' });
  return out;
}

function modelSettingsWindow(modelSettings: unknown, model: string | null, notes: string[]): number | null {
  if (modelSettings === undefined) return null;
  if (!isRecord(modelSettings)) {
    notes.push(`ignored modelSettings ${describeValue(modelSettings)}: not an object`);
    return null;
  }
  if (model === null) return null;
  const canonical = modelWindow(model).canonical;
  for (const [key, entry] of Object.entries(modelSettings)) {
    // The canonical name as key also matches dated, [1m], Bedrock and Vertex spellings.
    const matches = key === model || (canonical !== undefined && modelWindow(key).canonical === canonical);
    if (matches && isRecord(entry)) return settingsWindow(entry.autoCompactWindow, `modelSettings.${key}.autoCompactWindow`, notes);
  }
  return null;
}

function settingsWindow(value: unknown, name: string, notes: string[]): number | null {
  if (value === undefined || value === 'auto') return null;
  const tokens = positiveInt(value);
  if (tokens === null || tokens < MIN_AUTO_COMPACT_WINDOW) {
    notes.push(`ignored ${name} ${describeValue(value)}: expected "auto" or a whole number of at least ${MIN_AUTO_COMPACT_WINDOW}`);
    return null;
  }
  return tokens;
}
