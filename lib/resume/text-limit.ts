/**
 * How much text one hook may inject, in the host's own unit: Claude Code counts characters
 * (UTF-16 code units, as a JavaScript string's length), the Codex CLI counts UTF-8 bytes
 * (2,500 "tokens" of 4 bytes). Past the limit the host swaps the text for a file path or a
 * head/tail cut, so the renderers shrink their own text first.
 */
export interface TextLimit {
  max: number;
  unit: 'characters' | 'utf8-bytes';
}

/** Claude Code's limit on a hook's injected text (docs/hosts.md "The seam"), the default wherever no host is named. */
export const CHARACTER_LIMIT: TextLimit = { max: 10_000, unit: 'characters' };

/** The length of `text` in the limit's unit. */
export function measureText(text: string, unit: TextLimit['unit']): number {
  return unit === 'characters' ? text.length : utf8Length(text);
}

/** True when `text` fits the limit. */
export function fitsLimit(text: string, limit: TextLimit): boolean {
  // A string's UTF-8 length is at least its length and at most three times it: count only when unsure.
  if (limit.unit === 'utf8-bytes' && text.length * 3 <= limit.max) return true;
  return measureText(text, limit.unit) <= limit.max;
}

/** The longest prefix of `text` that fits the limit, never splitting a surrogate pair. */
export function clipToLimit(text: string, limit: TextLimit): string {
  if (fitsLimit(text, limit)) return text;
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const width = codePointWidth(text, end, limit.unit);
    if (used + width.size > limit.max) break;
    used += width.size;
    end += width.units;
  }
  return text.slice(0, end);
}

/** UTF-8 bytes of a JavaScript string (a lone surrogate encodes as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    const w = codePointWidth(text, i, 'utf8-bytes');
    bytes += w.size;
    i += w.units;
  }
  return bytes;
}

function codePointWidth(text: string, i: number, unit: TextLimit['unit']): { units: number; size: number } {
  const c = text.charCodeAt(i);
  const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff;
  if (unit === 'characters') return pair ? { units: 2, size: 2 } : { units: 1, size: 1 };
  if (pair) return { units: 2, size: 4 };
  return { units: 1, size: c < 0x80 ? 1 : c < 0x800 ? 2 : 3 };
}
