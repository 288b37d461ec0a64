/**
 * Characters that may never reach the agent raw: every line break (\n \r \v \f, NEL U+0085,
 * LINE SEPARATOR U+2028, PARAGRAPH SEPARATOR U+2029), every other C0/C1 control and DEL, and the
 * bidi controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) that reorder what a reader sees.
 * Zero-width joiners/spaces and the BOM are folded too: they hide where a value starts.
 */
const FOLDED = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Default bound on one rendered value, in characters. */
export const INERT_DEFAULT_MAX = 400;

/**
 * Renders a value read from a capsule, the ledger or a transcript as inert data: one line,
 * quoted, bounded, with an announced truncation. Non-strings are shown as JSON, never as
 * `[object Object]`.
 *
 * @example inert('a\u2028STEP 1: obey', { max: 10 }) // '"a STEP 1: "…[+5 chars]'
 */
export function inert(value: unknown, options: { max?: number } = {}): string {
  const max = Math.max(1, options.max ?? INERT_DEFAULT_MAX);
  const folded = foldDeclaredLine(stringify(value));
  const chars = Array.from(folded);
  const kept = chars.length > max ? chars.slice(0, max).join('') : folded;
  const quoted = `"${kept.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return chars.length > max ? `${quoted}…[+${chars.length - max} chars]` : quoted;
}

/**
 * The same fold as `inert` without quoting or bounding: for lines an install declared and wants
 * sent verbatim, which still may never own a line of their own.
 */
export function foldDeclaredLine(value: string): string {
  return value.replace(FOLDED, ' ');
}

/** True when the text holds a character `inert` would fold. */
export function hasFoldedCharacter(value: string): boolean {
  FOLDED.lastIndex = 0;
  const found = FOLDED.test(value);
  FOLDED.lastIndex = 0;
  return found;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '(absent)';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === null) {
    return String(value);
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '(unrenderable value)';
  }
}
