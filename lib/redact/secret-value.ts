// How far the value after a secret name runs (lib/redact/secret-assignments.ts). Scanned by hand
// rather than by one regex: a quoted value must skip the quotes escaped inside it, and a bare
// one must run on past `;` and `,` that are part of the password rather than separators.

/** A value read after a secret name: where it ends, and how it was delimited. */
export type SecretValue =
  | { form: 'quoted'; value: string; end: number; bs: string; q: string }
  | { form: 'open'; value: string; end: number; bs: string; q: string }
  | { form: 'bare'; value: string; end: number; first: string };

/** Longest value read; past it the rest of a line is not a value. */
const MAX_VALUE = 4096;
const OPEN_QUOTE = /(\\{0,3})(["'`])/y;
// A bare value stops at whitespace and code punctuation, or is one `${…}` reference.
const BARE = /\$\{[^}\n]*\}+|[^\s'"`;,&(){}[\]<>\\|]+/y;
// After a `;`, `,` or `&`, a new `name=` or `name:` pair starts (a connection string, a query).
const NEXT_PAIR = /[ \t]*[A-Za-z_][\w.-]{0,100}[ \t]*[=:]/y;

/** Index of the closing quote sequence (its backslashes included), or -1 when the line ends first. */
function findClose(text: string, from: number, bs: number, q: string): number {
  const limit = Math.min(text.length, from + MAX_VALUE);
  for (let i = from; i < limit; i++) {
    const c = text[i];
    if (c === '\n') return -1;
    if (c !== q) continue;
    let k = 0;
    while (i - k - 1 >= from && text.charCodeAt(i - k - 1) === 92) k++;
    // Unescaped (`"`): an even run of backslashes before it. JSON-escaped (`\"`): exactly that many;
    // `\\\"` is a quote escaped inside the inner string.
    if (bs === 0 ? k % 2 === 0 : k === bs) return i - k;
  }
  return -1;
}

/**
 * The value starting at `at`: a quoted value to its matching, unescaped quote on the same line;
 * an unclosed quote (a writer truncated before redacting: `"token": "abc…`) to the next quote
 * character (or, inside raw JSON, backslash) or the end of the line; a bare value to whitespace or
 * code punctuation, continued past `;`, `,` and `&` unless a new `name=` pair starts there.
 * Null when nothing there can be a value.
 */
export function readSecretValue(text: string, at: number): SecretValue | null {
  OPEN_QUOTE.lastIndex = at;
  const open = OPEN_QUOTE.exec(text);
  if (open) {
    const [opened, bs, q] = open as unknown as [string, string, string];
    const from = at + opened.length;
    const close = findClose(text, from, bs.length, q);
    if (close !== -1) return { form: 'quoted', value: text.slice(from, close), end: close + bs.length + 1, bs, q };
    let end = from;
    const limit = Math.min(text.length, from + MAX_VALUE);
    while (end < limit && !/["'`\n]/.test(text[end]!) && !(bs.length > 0 && text[end] === '\\')) end++;
    if (end - from < 4) return null;
    return { form: 'open', value: text.slice(from, end), end, bs, q };
  }
  BARE.lastIndex = at;
  const bare = BARE.exec(text);
  if (!bare) return null;
  const first = bare[0];
  let end = at + first.length;
  while (end - at < MAX_VALUE && /[;,&]/.test(text[end] ?? '') && /[^\s'"`;,&\\]/.test(text[end + 1] ?? '')) {
    NEXT_PAIR.lastIndex = end + 1;
    if (NEXT_PAIR.test(text)) break;
    BARE.lastIndex = end + 1;
    const more = BARE.exec(text);
    if (!more) break;
    end = end + 1 + more[0].length;
  }
  return { form: 'bare', value: text.slice(at, end), end, first };
}
