/** A model's context window and default output cap, as the host's model catalog lists them. */
export interface ModelWindow {
  /** Total context tokens the host budgets for this model. */
  window: number;
  /** The model's default maximum output tokens (the output reserve is min(this, 20000)). */
  maxOutputTokens: number;
  /** Where the numbers came from: the catalog row, a `[1m]` tag, or the classic default. */
  source: 'catalog' | 'tag-1m' | 'default';
  /** The catalog id matched, when one was. */
  canonical?: string;
}

/** Classic capacity the host assumes for a model it does not know (Claude Code's classic 200K window). */
export const DEFAULT_WINDOW = 200_000;
/** The 1M-token window of natively long-context models and of `[1m]`-tagged ids. */
export const LONG_WINDOW = 1_000_000;
const DEFAULT_MAX_OUTPUT = 32_000;

// Read from the model catalog inside Claude Code 2.1.332 (`context.window`,
// `max_output_tokens.default`). Rows with window 200000 and `maximum_window` 1e6 only reach 1M
// when the id carries `[1m]`, which is handled by the tag check below.
const CATALOG: ReadonlyArray<readonly [id: string, window: number, maxOutput: number]> = [
  ['claude-3-5-haiku', 200_000, 8_192],
  ['claude-3-5-sonnet', 200_000, 8_192],
  ['claude-3-7-sonnet', 200_000, 32_000],
  ['claude-haiku-4-5', 200_000, 32_000],
  ['claude-haiku-5-5', LONG_WINDOW, 128_000],
  ['claude-sonnet-4-0', 200_000, 32_000],
  ['claude-sonnet-4-5', 200_000, 32_000],
  ['claude-sonnet-4-6', 200_000, 32_000],
  ['claude-sonnet-5-5', LONG_WINDOW, 128_000],
  ['claude-sonnet-5', LONG_WINDOW, 64_000],
  ['claude-opus-4-0', 200_000, 32_000],
  ['claude-opus-4-1', 200_000, 32_000],
  ['claude-opus-4-5', 200_000, 32_000],
  ['claude-opus-4-6', 200_000, 64_000],
  ['claude-opus-4-7', LONG_WINDOW, 64_000],
  ['claude-opus-4-8', LONG_WINDOW, 64_000],
  ['claude-opus-5-5', LONG_WINDOW, 128_000],
  ['claude-opus-5', LONG_WINDOW, 64_000],
  ['claude-fable-5-1', LONG_WINDOW, 64_000],
  ['claude-fable-5-2', LONG_WINDOW, 128_000],
  ['claude-fable-5', LONG_WINDOW, 64_000],
  ['claude-mythos-5-1', LONG_WINDOW, 64_000],
  ['claude-mythos-5-2', LONG_WINDOW, 128_000],
  ['claude-mythos-5', LONG_WINDOW, 64_000],
];

/**
 * The window of a model id as the transcript, the status line or the settings spell it.
 * `[1m]` anywhere in the id means 1M; otherwise the longest catalog id the model id contains
 * wins (so dated, Bedrock and Vertex spellings match, and `claude-opus-5-5` is not read as
 * `claude-opus-5`); an unknown or missing id gets the classic 200K default.
 *
 * @example
 * modelWindow('claude-sonnet-4-6[1m]').window // 1_000_000
 */
export function modelWindow(model: string | null | undefined): ModelWindow {
  const id = typeof model === 'string' ? model.trim().toLowerCase() : '';
  const row = matchCatalog(id);
  if (/\[1m\]/.test(id)) {
    return { window: LONG_WINDOW, maxOutputTokens: row?.[2] ?? DEFAULT_MAX_OUTPUT, source: 'tag-1m', ...(row ? { canonical: row[0] } : {}) };
  }
  if (row) return { window: row[1], maxOutputTokens: row[2], source: 'catalog', canonical: row[0] };
  return { window: DEFAULT_WINDOW, maxOutputTokens: DEFAULT_MAX_OUTPUT, source: 'default' };
}

function matchCatalog(id: string): (typeof CATALOG)[number] | undefined {
  if (id === '') return undefined;
  let best: (typeof CATALOG)[number] | undefined;
  for (const row of CATALOG) {
    const at = id.indexOf(row[0]);
    if (at === -1) continue;
    // `claude-opus-5` must not match inside `claude-opus-5-5`: the next char may not extend the version.
    const next = id.charAt(at + row[0].length);
    if (/[0-9]/.test(next) || (next === '-' && /^-[0-9](?![0-9]{3})/.test(id.slice(at + row[0].length)))) continue;
    if (!best || row[0].length > best[0].length) best = row;
  }
  return best;
}
