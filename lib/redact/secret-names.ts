// A name "looks secret" when a secret word is its last word, or is followed only by words that
// keep its meaning (TRAILERS). Words come from splitting on `_ - .` and camelCase, so `max_tokens`,
// `tokenizer`, `token_type` and `author` are not secret while `GITHUB_TOKEN`, `apiKey`,
// `dbPassword`, `client_secret` and `SECRET_KEY_BASE` are.

/** Words that make a name secret when a word equals or ends with them (`authtoken`, `dbpassword`). */
const SECRET_SUFFIXES = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'accesskey', 'privatekey', 'secretkey', 'authkey'];

/** Words that make a name secret only when a word equals them. */
const SECRET_WORDS = new Set(['pwd', 'auth', 'authorization', 'credential', 'credentials', 'bearer', 'sas']);

/** `<word> key` pairs that name a key that is a secret (`api_key`, `AccountKey`, `signing-key`). */
const KEY_QUALIFIERS = new Set([
  'api', 'access', 'secret', 'private', 'account', 'storage', 'master', 'shared', 'signing',
  'encryption', 'client', 'app', 'subscription', 'session', 'license', 'auth', 'webhook',
]);

// A name that starts with a quantity counts secrets rather than holding one (`max_token`,
// `num_secrets`, `total_token_count`). Words after the secret word are handled by TRAILERS.
const QUANTITY_PREFIXES = new Set(['max', 'min', 'num', 'count', 'total', 'len', 'length', 'size', 'n']);

/** Splits an identifier into lower-case words: `AWS_SECRET_ACCESS_KEY` → aws secret access key, `apiKeyId` → api key id. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

// Words that may follow the secret word without changing what the name holds: `SECRET_KEY_BASE`,
// `token_value`, `password_hash`, `access_key_id`, `API_KEY_2`. Any other word after it makes the
// name describe something else (`UnexpectedTokenUnary`, `tokenIsKeyword`).
const TRAILERS = new Set([
  'value', 'key', 'keys', 'base', 'hash', 'hashed', 'str', 'string', 'b64', 'base64', 'hex', 'raw', 'enc',
  'encrypted', 'plain', 'plaintext', 'data', 'bytes', 'secret', 'token', 'pem', 'der', 'id', 'v1', 'v2',
]);

/** True when the word at `i` makes the whole name secret. */
function isSecretWordAt(words: string[], i: number, name: string): boolean {
  const w = words[i] as string;
  if (SECRET_WORDS.has(w)) return w !== 'pwd' || words.length > 1; // a bare `PWD` is the working directory
  if (SECRET_SUFFIXES.some((s) => w.endsWith(s))) return true;
  if ((w === 'key' || w === 'keys') && i > 0 && KEY_QUALIFIERS.has(words[i - 1] as string)) return true;
  // `DB_PASS` / `SMTP_PASS`: only last and upper-case, where `pass` is neither a count nor a stage.
  return w === 'pass' && i === words.length - 1 && i > 0 && /^[A-Z0-9_]+$/.test(name);
}

// Names repeat (`input_tokens` on every usage record), so verdicts are memoised, boundedly.
const verdicts = new Map<string, boolean>();

/** True when a field or variable name looks like it holds a secret (`password`, `GITHUB_TOKEN`, `client_secret`, `apiKey`…). */
export function isSecretName(name: string): boolean {
  const known = verdicts.get(name);
  if (known !== undefined) return known;
  const verdict = judgeName(name);
  if (verdicts.size >= 2000) verdicts.clear();
  verdicts.set(name, verdict);
  return verdict;
}

function judgeName(name: string): boolean {
  if (name.length > 100) return false;
  // A member path names its last segment: `config.password` is a secret, `token.indent` is not.
  const words = nameWords(name.slice(name.lastIndexOf('.') + 1));
  if (words.length === 0 || QUANTITY_PREFIXES.has(words[0] as string)) return false;
  for (let i = 0; i < words.length; i++) {
    if (isSecretWordAt(words, i, name) && words.slice(i + 1).every((w) => TRAILERS.has(w) || /^\d+$/.test(w))) return true;
  }
  return false;
}
