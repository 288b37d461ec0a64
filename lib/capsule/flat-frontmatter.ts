import type { Frontmatter } from './types';

// One `key: value` line. Keys: lower-case words only (never a YAML null/bool spelling).
const LINE = /^([a-z_][a-z0-9_]*): (.+)$/;
const RESERVED_KEYS = new Set(['null', 'true', 'false', '__proto__']);
// A double-quoted scalar with no escapes, no quote inside and only printable BMP characters,
// whose YAML value is exactly its content.
const QUOTED = /^"([\x20\x21\x23-\x5b\x5d-\x7e\u00a0-\ud7ff\ue000-\ufefe\uff00-\ufffd]*)"$/;
// A plain scalar of ASCII words separated by single spaces, starting with a letter or digit,
// with no `: ` or trailing `:` (mapping), no `#` (comment) and no flow or quote characters.
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9_./:+-]*(?: [A-Za-z0-9_./:+-]+)*$/;
// Plain scalars the YAML 1.2 core schema reads as something other than a string.
const CORE_NON_STRING = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;

/**
 * Reads frontmatter that is a flat mapping of string scalars, one `key: value` line each (what
 * the renderer writes for most capsules), without the YAML library: loading and running it
 * for one small document costs more than node's own start. Returns null for anything outside
 * that narrow subset (nesting, numbers, nulls, escapes, comments, duplicates, blank lines), and
 * the caller then parses with the YAML library; on the subset the result equals the library's
 * (YAML 1.2 core schema), which test/capsule/flat-frontmatter.test.ts checks against it.
 */
export function parseFlatFrontmatter(yaml: string): Frontmatter | null {
  if (!yaml.endsWith('\n')) return null;
  const lines = yaml.slice(0, -1).split('\n');
  const out: Record<string, string> = {};
  for (const line of lines) {
    const m = LINE.exec(line);
    if (m === null) return null;
    const key = m[1]!;
    const raw = m[2]!;
    if (RESERVED_KEYS.has(key) || Object.prototype.hasOwnProperty.call(out, key)) return null;
    const quoted = QUOTED.exec(raw);
    if (quoted !== null) {
      out[key] = quoted[1]!;
      continue;
    }
    if (!PLAIN.test(raw) || /:(?: |$)/.test(raw) || CORE_NON_STRING.test(raw)) return null;
    out[key] = raw;
  }
  return lines.length === 0 ? null : (out as Frontmatter);
}
