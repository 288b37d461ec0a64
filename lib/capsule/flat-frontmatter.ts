import type { Frontmatter } from './types';

// Keys: lower-case words only (never a YAML null/bool spelling, never a prototype key).
const KEY = /^[a-z_][a-z0-9_]*$/;
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
const DOCUMENT_MARKER = /^(?:%|---|\.\.\.)/m;

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
    if (colon <= 0 || !KEY.test(key) || RESERVED_KEYS.has(key) || Object.prototype.hasOwnProperty.call(out, key)) return null;
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
    if (!KEY.test(key) || RESERVED_KEYS.has(key)) return null;
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
  const double = DOUBLE.exec(raw);
  if (double !== null) return double[1]!.replace(/\\(["\\])/g, '$1');
  const single = SINGLE.exec(raw);
  if (single !== null) return single[1]!.replace(/''/g, "'");
  if (!PLAIN.test(raw) || PLAIN_BREAKERS.test(raw) || CORE_NON_STRING.test(raw) || DOCUMENT_MARKER.test(raw)) return null;
  return raw;
}

function writeScalar(value: unknown): string | null {
  if (typeof value !== 'string' || value === '' || !SAFE_TEXT.test(value) || DOCUMENT_MARKER.test(value)) return null;
  if (!NEEDS_QUOTES.test(value) && !CORE_NON_STRING.test(value)) return value;
  const hasDouble = value.includes('"');
  const hasSingle = value.includes("'");
  if (hasDouble && !hasSingle) return `'${value}'`;
  // The library's double-quoted form is JSON's for printable text; beyond ASCII it escapes some characters itself.
  return /^[\x20-\x7e]*$/.test(value) ? JSON.stringify(value) : null;
}
