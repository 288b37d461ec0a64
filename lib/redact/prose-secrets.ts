import type { FindingTally } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';

// A secret written in a sentence, as people type it into a prompt: "my password is hunter2",
// "the db password for prod is Tr0ub4dor&3", "use passphrase correct-horse-42", "the API token
// is 9f8e…". A prompt becomes the objective, the commit subject and an index line, so the word
// after the connector goes. Found the way assignments are (lib/redact/secret-assignments.ts):
// plain `indexOf` of the hint words, then one sticky match where a hint ends.
/** The secret words a prose secret follows: a text that holds none has none. */
export const PROSE_CUES: readonly string[] = ['password', 'passphrase', 'passcode', 'passwd', 'secret', 'token', 'api key'].flatMap((w) => [w, w.charAt(0).toUpperCase() + w.slice(1)]);
// Only these take a plural and a bare colon ("passwords are …", "password: …"): a `tokens: n`
// or `secret: x` is code, which the assignment detector reads.
const PROSE_ONLY = new Set(['password', 'passphrase', 'passcode', 'passwd', 'Password', 'Passphrase', 'Passcode', 'Passwd']);

// After the hint: an optional qualifier ("for prod", "of the admin account"), then a connector
// ("is", "are", "was", ":") and the value, or the value right away ("use password X"; only for a
// value that cannot be an ordinary word, see looksSecret).
const AFTER_HINT = /(?<plural>s?)(?<qualifier>[ \t]+(?:for|of|on|to)(?:[ \t]+[^\s:]{1,30}){1,3}?)?(?:(?<connector>[ \t]+(?:is|are|was|will be|should be)[ \t]+|[ \t]*:[ \t]+)|(?<direct>[ \t]+))["'`]?(?<value>[^\s"'`]{3,200})/y;

// Words that follow "password is" in sentences about passwords rather than of them.
const STOPWORDS = new Set([
  'a', 'an', 'the', 'not', 'no', 'now', 'in', 'on', 'at', 'to', 'for', 'of', 'and', 'or', 'as', 'by', 'be', 'is', 'it', 'its', 'this', 'that', 'what',
  'set', 'unset', 'wrong', 'incorrect', 'invalid', 'correct', 'valid', 'required', 'optional', 'missing', 'empty', 'blank', 'expired', 'revoked',
  'stored', 'saved', 'hashed', 'encrypted', 'encoded', 'salted', 'rotated', 'changed', 'reset', 'updated', 'generated', 'sent', 'shown', 'hidden',
  'masked', 'redacted', 'too', 'very', 'still', 'also', 'being', 'same', 'different', 'weak', 'strong', 'short', 'long', 'needed', 'provided',
  'given', 'known', 'unknown', 'null', 'none', 'nil', 'undefined', 'true', 'false', 'string', 'number', 'used', 'only', 'never', 'always', 'case',
  'sensitive', 'ignored', 'accepted', 'rejected', 'checked', 'compared', 'verified', 'read', 'written', 'loaded', 'passed', 'taken', 'kept',
  'there', 'here', 'then', 'when', 'where', 'which', 'who', 'how', 'why', 'your', 'my', 'our', 'their', 'his', 'her', 'one', 'two', 'all', 'any',
  'some', 'each', 'every', 'should', 'must', 'can', 'will', 'may', 'would', 'could', 'has', 'have', 'had', 'was', 'were', 'are', 'been', 'from',
  'with', 'without', 'into', 'via', 'using', 'per', 'stale', 'ok', 'okay', 'fine', 'good', 'bad', 'new', 'old', 'current', 'previous', 'next',
  'first', 'last', 'default', 'local', 'remote', 'secret', 'password', 'token', 'key', 'value', 'field', 'variable', 'env', 'environment',
  'file', 'flag', 'option', 'argument', 'parameter', 'header', 'cookie', 'hash', 'prompt', 'login', 'auth', 'user', 'username', 'account',
  'type', 'types', 'interface', 'class', 'struct', 'enum', 'object', 'bytes', 'str', 'int', 'bool', 'boolean', 'any', 'function', 'method',
]);

/** True when a value written without a connector cannot be an ordinary word: a digit, a symbol, or a capital inside it. */
function looksSecret(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) || /[^A-Za-z0-9]/.test(value.slice(0, -1)) || /.[A-Z]/.test(value) && /[a-z]/.test(value);
}

/** True when the value reads as code: a call, a member read, a type name after a colon, a condition. */
function looksLikeCode(value: string, connector: string | undefined): boolean {
  if (/[()[\]{}]/.test(value) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || value.endsWith(':')) return true;
  return connector !== undefined && connector.includes(':') && /^[A-Z][A-Za-z]*[;,]?$/.test(value);
}

/** Every position where a hint ends, ascending, with whether the hint is a password word. */
function hintEnds(text: string): Array<{ end: number; password: boolean }> {
  const at: Array<{ end: number; password: boolean }> = [];
  for (const hint of PROSE_CUES) {
    for (let i = text.indexOf(hint); i !== -1; i = text.indexOf(hint, i + hint.length)) {
      // A whole word: `passwords` is fine (the `s?` above), `tokenizer` and `mypassword_file` are not this.
      if (i > 0 && /[A-Za-z0-9_]/.test(text[i - 1]!)) continue;
      at.push({ end: i + hint.length, password: PROSE_ONLY.has(hint) });
    }
  }
  return at.sort((a, b) => a.end - b.end);
}

/** Replaces a secret written in prose after a secret word, counting each as `prose-secret`. */
export function redactProseSecrets(text: string, tally: FindingTally): string {
  let out = '';
  let copied = 0;
  for (const { end, password } of hintEnds(text)) {
    if (end < copied) continue;
    AFTER_HINT.lastIndex = end;
    const m = AFTER_HINT.exec(text);
    const g = m?.groups;
    if (!m || !g) continue;
    if (!password && (g.plural !== '' || (g.connector !== undefined && g.connector.includes(':')))) continue;
    const value = (g.value as string).replace(/[.,;)]+$/, '');
    if (value.length < 3 || isPlaceholderValue(value) || STOPWORDS.has(value.toLowerCase()) || looksLikeCode(value, g.connector)) continue;
    if (g.direct !== undefined && !looksSecret(value)) continue;
    const valueEnd = end + m[0].length - ((g.value as string).length - value.length);
    const valueStart = valueEnd - value.length;
    tally.add('prose-secret');
    out += text.slice(copied, valueStart) + redactionMarker('prose-secret');
    copied = valueEnd;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
