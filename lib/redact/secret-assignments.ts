import { isSecretName, nameWords } from './secret-names';
import type { FindingTally } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';
import { readSecretValue } from './secret-value';

// `NAME=value`, `name: value`, `"name": "value"`, `--name=value`, also inside raw JSONL where
// quotes and line breaks arrive escaped (`\"password\": \"x\"`, `\nTOKEN=x`). Trying every word
// for a separator costs ~40 µs/KB, and one case-insensitive alternation of the hints ~8 µs/KB,
// so the scan finds the substrings every secret name contains with plain `indexOf` (~0.05 µs/KB
// each) in their lower, Capitalised and UPPER forms (`token`, `accessToken`, `GITHUB_TOKEN`; a
// name like `tOkEn` is missed), walks back to the start of the name, and matches name and
// separator there (sticky). `=` is not `==` / `=>`, and `:` is not `::` or `://`.
/** The substrings every secret name holds, in three cases: a text that holds none has no assignment to read. */
export const ASSIGNMENT_CUES: readonly string[] = ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'credential', 'bearer', 'sas'].flatMap((w) => [
  w,
  w.charAt(0).toUpperCase() + w.slice(1),
  w.toUpperCase(),
]);

/** Every position where a hint starts, ascending. */
function hintPositions(text: string): number[] {
  const at: number[] = [];
  for (const hint of ASSIGNMENT_CUES) {
    for (let i = text.indexOf(hint); i !== -1; i = text.indexOf(hint, i + hint.length)) at.push(i);
  }
  return at.sort((a, b) => a - b);
}

// The separator may also be spaces before a quoted value (`storePassword 'x'` in Gradle,
// `PASSWORD 'x'` in SQL, `password "x"` in Ruby): only a quoted value is taken after it.
const NAME_SEP = /(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,100})(?<nq>\\{0,3}["']?)(?<sep>[ \t]*(?:=(?![=>~])|:(?![:/]))[ \t]*|[ \t]+(?=\\{0,3}["']))/y;

function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45; // a-z A-Z 0-9 _ . -
}

function isNameStartChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** True when the characters at `at - 1`, `at` are a JSON escape (`\n`, `\r`, `\t`). */
function isEscapeAt(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return text.charCodeAt(at - 1) === 92 && (c === 110 || c === 114 || c === 116);
}

/** The start of the name around the hint at `at` (back over name characters, forward to a letter), or -1 after `$` or `\`. */
function nameStart(text: string, at: number): number {
  let s = at;
  while (s > 0 && isNameChar(text.charCodeAt(s - 1))) s--;
  // `\npassword=` in raw JSONL: the `n` of the escape is not part of the name.
  if (s > 0 && isEscapeAt(text, s)) s++;
  while (s < at && !isNameStartChar(text.charCodeAt(s))) s++;
  const before = text.charCodeAt(s - 1);
  if (s > 0 && (before === 36 || (before === 92 && !isEscapeAt(text, s)))) return -1; // `$TOKEN`, `\token`
  return s;
}

// Unquoted values that are code or configuration vocabulary, not secrets (`token: string`,
// `password: null`, `auth: true`).
const KEYWORDS = new Set([
  'true', 'false', 'null', 'none', 'nil', 'undefined', 'yes', 'no', 'on', 'off', 'string', 'number',
  'boolean', 'bool', 'any', 'unknown', 'object', 'str', 'int', 'bytes', 'optional', 'required',
  'redacted', 'secret', 'password', 'token', 'basic', 'bearer', 'digest', 'self', 'this', 'new', 'await', 'return', 'function',
]);

// Enum members, counters and flags: `OpenBraceToken = 19`, `token.indent = -1`, `STENCIL = 0x0B95`.
const SMALL_NUMBER = /^(?:-?\d{1,5}|0x[0-9A-Fa-f]{1,16}|-?\d+\.\d+)$/;
// A declaration names a type, not a value: `type RequestCredentials = "include" | "omit"`.
const DECLARATION_BEFORE = /\b(?:type|interface|enum|class|struct)\s+$/;
const MEMBER_CHAIN = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const LETTERS_ONLY = /^[A-Za-z_]+$/;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** True when an unquoted value after a secret name reads as code or prose rather than as a literal secret. */
function looksLikeCode(value: string, sep: string, after: string): boolean {
  if (KEYWORDS.has(value.toLowerCase()) || SMALL_NUMBER.test(value)) return true;
  if (MEMBER_CHAIN.test(value)) return true; // a member read: `env.TOKEN`, `self.password`, `config.apiKey`
  if (after[0] === '(' || after[0] === '[' || after[0] === '.') return true; // a call or an index
  if (sep.includes(':')) {
    // A type annotation (`privateKey: T2;`), an object shorthand (`{ password: pw, … }`), a ternary.
    // (A lone `>` is no arrow: `echo token: abc123 > .env` redirects a literal into a file.)
    if (IDENTIFIER.test(value) && /^[ \t]*(?:[;,)|=}\]?]|=>)/.test(after)) return true;
    if (!LETTERS_ONLY.test(value) || value.length >= 24) return false;
    // A type name (`token?: TokenSet`) or prose going on after a colon (`the token: the URL…`);
    // a shell operator after it (`> file`, `| tee`, `&& …`, `;`) is a command, not prose.
    return /^[A-Z]/.test(value) || /^[ \t]+[^\s#>|&;]/.test(after);
  }
  if (!/\s/.test(sep)) return false; // `PASSWORD=changeme`, `--token=abc123`: env or CLI, a literal
  // Spaced, it is code: `token = nextToken`, `contextToken = parent2;`, `a = b && c`.
  return LETTERS_ONLY.test(value) || (IDENTIFIER.test(value) && /^[ \t]*[;,)&|?:}\]]/.test(after));
}

// A quoted value with no letter or digit, or shorter than four characters, is a delimiter or a
// flag (`startToken = "{|"`, `tokenValue = "0"`), not a credential.
function tooPlainForSecret(value: string): boolean {
  return value.length < 4 || !/[A-Za-z0-9]/.test(value);
}

/** The redaction kind for the value of a secret-named field: AWS secret keys keep their own name. */
export function assignmentKind(name: string): string {
  const words = nameWords(name).join(' ');
  return /secret access key|secretaccesskey/.test(words) ? 'aws-secret-access-key' : 'secret-assignment';
}

/** The replacement for the value at `at` after a secret name, or null when it is no secret. */
function redactValueAt(text: string, at: number, name: string, sep: string, tally: FindingTally): { end: number; replacement: string } | null {
  const v = readSecretValue(text, at);
  if (v === null || v.value.length === 0 || isPlaceholderValue(v.value)) return null;
  // `credential: auth: "x"`: the word after the name is the next name, not a value; leave it, so
  // the assignment it starts is read (and its value redacted) in turn.
  if (v.form === 'bare' && /^[A-Za-z_][\w.-]*:$/.test(v.value)) return null;
  if (!/[=:]/.test(sep) && v.form !== 'quoted') return null;
  if (v.form === 'bare' ? looksLikeCode(v.first, sep, text.slice(at + v.first.length, at + v.first.length + 3)) : tooPlainForSecret(v.value)) return null;
  const kind = assignmentKind(name);
  tally.add(kind);
  const marker = redactionMarker(kind);
  if (v.form === 'quoted') return { end: v.end, replacement: `${v.bs}${v.q}${marker}${v.bs}${v.q}` };
  return { end: v.end, replacement: v.form === 'open' ? `${v.bs}${v.q}${marker}` : marker };
}

/** Replaces the values of assignments whose name looks secret, counting each in `tally`. */
export function redactAssignments(text: string, tally: FindingTally): string {
  let out = '';
  let copied = 0;
  let resume = 0;
  for (const hintAt of hintPositions(text)) {
    if (hintAt < resume) continue;
    const start = nameStart(text, hintAt);
    if (start === -1) continue;
    NAME_SEP.lastIndex = start;
    const m = NAME_SEP.exec(text);
    const g = m?.groups as Record<string, string> | undefined;
    if (!m || !g || start + (g.name as string).length <= hintAt) continue;
    resume = start + (g.name as string).length;
    const valueAt = start + m[0].length;
    const secret = isSecretName(g.name as string) && !DECLARATION_BEFORE.test(text.slice(Math.max(0, start - 12), start));
    const done = secret ? redactValueAt(text, valueAt, g.name as string, g.sep as string, tally) : null;
    // Not consumed when not redacted: the value may itself hold assignments (`"content": "password=…"`).
    if (done === null) continue;
    out += text.slice(copied, valueAt) + done.replacement;
    copied = done.end;
    resume = done.end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
