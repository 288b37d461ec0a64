/** The outcome of reading a token count typed by a person or set in the environment. */
export type TokenCountParse = { ok: true; tokens: number } | { ok: false; reason: 'EMPTY' | 'NOT_A_COUNT' | 'NOT_WHOLE' };

/**
 * Reads `150000`, `150k`, `1.5m` or `1M` as whole tokens: decimal `k` (×1000) and `m`
 * (×1,000,000) suffixes, no separators, no negative or fractional token results.
 *
 * @example
 * parseTokenCount('100k') // { ok: true, tokens: 100000 }
 */
export function parseTokenCount(text: string): TokenCountParse {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'EMPTY' };
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(trimmed);
  if (!match) return { ok: false, reason: 'NOT_A_COUNT' };
  const scale = match[2] === '' ? 1 : match[2]!.toLowerCase() === 'k' ? 1_000 : 1_000_000;
  const tokens = Number(match[1]) * scale;
  // 1.5k is 1500 tokens; 1.0005k is not a whole number of tokens and is refused, not rounded.
  const rounded = Math.round(tokens);
  if (Math.abs(tokens - rounded) > 1e-6 || !Number.isSafeInteger(rounded)) return { ok: false, reason: 'NOT_WHOLE' };
  return { ok: true, tokens: rounded };
}

/** Formats tokens compactly for people: 183000 → "183k", 1000000 → "1m", 1234 → "1234". */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000 && tokens % 100_000 === 0) return `${tokens / 1_000_000}m`;
  if (tokens >= 10_000) return `${Math.round(tokens / 100) / 10}k`;
  return String(tokens);
}
