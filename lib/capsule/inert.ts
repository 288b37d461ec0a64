import { foldHidden, hasHiddenCharacter } from './hidden-characters';

/** Default bound on one rendered value, in characters. */
export const INERT_DEFAULT_MAX = 400;

/**
 * Renders a value read from a capsule, the ledger or a transcript as inert data: one line,
 * quoted, bounded, with an announced truncation. Every line break, control, format, bidi, tag
 * and other invisible character (lib/capsule/hidden-characters.ts) becomes a space.
 * Non-strings are shown as JSON, never as `[object Object]`.
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
  return foldHidden(value);
}

/** True when the text holds a character `inert` would fold (lib/capsule/hidden-characters.ts). */
export function hasFoldedCharacter(value: string): boolean {
  return hasHiddenCharacter(value);
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
