import type { Frontmatter } from './types';

// Keys: lower-case words only, `[a-z_][a-z0-9_]*` (never a YAML null/bool spelling, never a prototype key).
const RESERVED_KEYS = new Set(['null', 'true', 'false', '__proto__']);
// Printable characters that need no escape in any YAML scalar style (no controls, no C1, no
// surrogates, no BOM, no line or paragraph separators).
const SAFE = '\\x20-\\x7e\\u00a0-\\u2027\\u202a-\\ud7ff\\ue000-\\ufefe\\uff00-\\ufffd';
const SAFE_TEXT = new RegExp(`^[${SAFE}]*$`);
const DOUBLE = new RegExp(`^"((?:[${SAFE.replace('\\x20-\\x7e', '\\x20\\x21\\x23-\\x5b\\x5d-\\x7e')}]|\\\\["\\\\])*)"$`);
const SINGLE = new RegExp(`^'((?:[${SAFE.replace('\\x20-\\x7e', '\\x20-\\x26\\x28-\\x7e')}]|'')*)'$`);
// A plain scalar: starts with a letter or digit, no ` #`-comment, no `: `, no trailing space or colon.
const PLAIN = new RegExp(`^[A-Za-z0-9][${SAFE}]*$`);
const PLAIN_BREAKERS = /: |:$| #| $|\t/;
// Plain scalars the YAML 1.2 core schema reads as something other than a string.
const CORE_NON_STRING = /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
// What the YAML library's stringifier writes as plain: no leading indicator, no `: `, ` #` or trailing space/colon.
const NEEDS_QUOTES = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;

/**
 * Reads frontmatter that is a flat mapping of string scalars and lists of them (what the
 * renderer writes for nearly every capsule) without the YAML library: loading and running it
 * for one small document costs more than node's own start. Returns null for anything outside
 * that narrow subset (nesting, numbers, nulls, escapes, comments, duplicates, blank lines), and
 * the caller then parses with the library; on the subset the result equals the library's
 * (YAML 1.2 core schema), which test/capsule/flat-frontmatter.test.ts checks against it.
 */
export function parseFlatFrontmatter(yaml: string): Frontmatter | null {
  if (!yaml.endsWith('\n')) return null;
  const lines = yaml.slice(0, -1).split('\n');
  const out: Record<string, string | string[]> = {};
  let list: string[] | null = null;
  for (const line of lines) {
    if (line.startsWith('  - ') && list !== null) {
      const item = readScalar(line.slice(4));
      if (item === null) return null;
      list.push(item);
      continue;
    }
    if (list !== null && list.length === 0) return null;
    list = null;
    const colon = line.indexOf(':');
    const key = line.slice(0, colon);
    if (colon <= 0 || !isKey(key) || RESERVED_KEYS.has(key) || Object.prototype.hasOwnProperty.call(out, key)) return null;
    if (line.length === colon + 1) {
      list = [];
      out[key] = list;
      continue;
    }
    if (line[colon + 1] !== ' ') return null;
    const value = readScalar(line.slice(colon + 2));
    if (value === null) return null;
    out[key] = value;
  }
  if (list !== null && list.length === 0) return null;
  return lines.length === 0 ? null : (out as Frontmatter);
}

/**
 * Writes frontmatter as the YAML library's `Document#toString({ lineWidth: 0 })` would, for a
 * flat mapping of one-line strings and non-empty lists of them; null for anything else, and
 * the caller then renders with the library. Byte-equality with the library on the subset is
 * checked by test/capsule/flat-frontmatter.test.ts.
 */
export function renderFlatFrontmatter(fields: Frontmatter): string | null {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (!isKey(key) || RESERVED_KEYS.has(key)) return null;
    if (Array.isArray(value)) {
      if (value.length === 0) return null;
      lines.push(`${key}:`);
      for (const item of value as unknown[]) {
        const text = writeScalar(item);
        if (text === null) return null;
        lines.push(`  - ${text}`);
      }
      continue;
    }
    const text = writeScalar(value);
    if (text === null) return null;
    lines.push(`${key}: ${text}`);
  }
  return lines.length === 0 ? null : `${lines.join('\n')}\n`;
}

function readScalar(raw: string): string | null {
  // DOUBLE and SINGLE open with their quote: a plain value (most lines) never runs them, and a
  // pattern run once is compiled once, where a second run in the process compiles it again to
  // machine code.
  const quote = raw.charCodeAt(0);
  const double = quote === 0x22 ? DOUBLE.exec(raw) : null;
  if (double !== null) return double[1]!.replace(/\\(["\\])/g, '$1');
  const single = quote === 0x27 ? SINGLE.exec(raw) : null;
  if (single !== null) return single[1]!.replace(/''/g, "'");
  if (!PLAIN.test(raw) || PLAIN_BREAKERS.test(raw) || readsAsNonString(raw) || startsDocumentMarker(raw)) return null;
  return raw;
}

function writeScalar(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || !SAFE_TEXT.test(value) || startsDocumentMarker(value)) return null;
  if (!NEEDS_QUOTES.test(value) && !readsAsNonString(value)) return value;
  const hasDouble = value.includes('"');
  const hasSingle = value.includes("'");
  if (hasDouble && !hasSingle) return `'${value}'`;
  // The library's double-quoted form is JSON's for printable text; beyond ASCII it escapes some characters itself.
  return /^[\x20-\x7e]*$/.test(value) ? JSON.stringify(value) : null;
}

/**
 * CORE_NON_STRING.test, run only on text it could match: one starting with `~`, a null, bool,
 * sign or dot, or a number of digits, hex or octal letters, dots and exponent signs. Ids, stamps
 * and session ids (a digit first, then a letter past `f`, a colon or a dash) never run it: every
 * value of every capsule passes here on render and on read, and the pattern's compilation is
 * most of its cost in a fresh process.
 */
function readsAsNonString(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first >= 0x30 && first <= 0x39) {
    for (let i = 1; i < text.length; i++) {
      const c = text.charCodeAt(i) | 0x20; // ASCII letters lower-cased; digits, `.`, `+` and `-` keep their codes
      const digitOrHex = (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66);
      const sign = (c === 0x2b || c === 0x2d) && (text.charCodeAt(i - 1) | 0x20) === 0x65; // only in an exponent
      if (!digitOrHex && !sign && c !== 0x2e && c !== 0x6f && c !== 0x78) return false;
    }
  } else if (!'~NnTtFf+-.'.includes(text.charAt(0)) || text === '') {
    return false;
  }
  return CORE_NON_STRING.test(text);
}

/**
 * A `%` directive or a `---`/`...` document marker at the start of a line of `text` (YAML would
 * read it as one), for text that holds no line terminator: the scalars here are one line of SAFE
 * characters, which exclude every one of them, so only the start of the text can be such a line.
 */
function startsDocumentMarker(text: string): boolean {
  return text.startsWith('%') || text.startsWith('---') || text.startsWith('...');
}

/** A key the subset writes and reads: `[a-z_][a-z0-9_]*`, scanned rather than matched (see readsAsNonString). */
function isKey(key: string): boolean {
  if (key === '') return false;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (!((c >= 0x61 && c <= 0x7a) || c === 0x5f || (i > 0 && c >= 0x30 && c <= 0x39))) return false;
  }
  return true;
}
