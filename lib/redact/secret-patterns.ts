/**
 * One token-shaped secret detector: a kind for the `[REDACTED:<kind>]` marker, a cheap literal
 * gate, and a global pattern. When the pattern has a named group `s`, only that group is
 * replaced and the groups `pre` / `post` around it are kept (a URL keeps its user and host).
 */
export interface SecretPattern {
  kind: string;
  /** Literal substrings of which at least one must occur, else the pattern is skipped; empty means always run. */
  gate: readonly string[];
  pattern: RegExp;
  /** The match must start a word (lib/redact/token-start.ts): no `[A-Za-z0-9_]` before it, a JSON `\n` escape, or a hyphen where the prefix is no word's tail. */
  wordStart?: boolean;
}

// Shapes follow the providers' documented prefixes, cross-checked with secretlint 13.1 and
// gitleaks rules. Lengths are lower bounds, looser than the providers' exact lengths on purpose:
// the memory branch is pushed, so a missed secret costs more than a redacted look-alike.
// `wordStart` and `(?![\w-])` keep a prefix from matching inside a longer word ("disk-…"). The
// start is checked by the caller, not by a leading lookbehind: a pattern that starts with its
// literal prefix lets the regex engine skip ahead (measured: 10 µs/KB → 0.5 µs/KB per pattern).
const E = String.raw`(?![A-Za-z0-9_-])`;
const AWS_KEY_PREFIXES = ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'A3T'];

/** The token detectors, in the order they run (more specific first: sk-ant- before sk-). */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // Gated by its prefixes like every other detector (it ran on every string: ~0.2 ms cold per Stop).
  { kind: 'aws-access-key-id', gate: AWS_KEY_PREFIXES, pattern: new RegExp(`(?<![A-Z0-9])(?:${AWS_KEY_PREFIXES.join('|').replace('A3T', 'A3T[A-Z0-9]')})[A-Z0-9]{16}(?![A-Z0-9])`, 'g') },
  { kind: 'gcp-api-key', gate: ['AIza'], pattern: new RegExp(`AIza[0-9A-Za-z_-]{35}${E}`, 'g'), wordStart: true },
  { kind: 'gcp-oauth-secret', gate: ['GOCSPX-'], pattern: new RegExp(`GOCSPX-[0-9A-Za-z_-]{20,}`, 'g'), wordStart: true },
  { kind: 'gcp-oauth-token', gate: ['ya29.'], pattern: new RegExp(`ya29\\.[0-9A-Za-z_-]{20,}`, 'g'), wordStart: true },
  {
    kind: 'azure-storage-key',
    gate: ['AccountKey='],
    pattern: /(?<pre>AccountKey=)(?<s>(?!\[REDACTED:)[A-Za-z0-9+/]{20,}={0,2})/g,
  },
  {
    kind: 'azure-connection-string',
    gate: ['SharedAccess'],
    pattern: /(?<pre>SharedAccess(?:Key|Signature)=)(?<s>(?!\[REDACTED:)[^;"'\s\\]{8,})/g,
  },
  {
    kind: 'azure-sas-signature',
    gate: ['sig='],
    pattern: /(?<pre>[?&;]sig=)(?<s>(?!\[REDACTED:)[A-Za-z0-9%+/=_-]{16,})/g,
  },
  { kind: 'azure-client-secret', gate: ['Q~'], pattern: new RegExp(`[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}${E}`, 'g'), wordStart: true },
  { kind: 'github-token', gate: ['gh'], pattern: new RegExp(`gh[pousr]_[A-Za-z0-9_]{30,255}${E}`, 'g'), wordStart: true },
  { kind: 'github-token', gate: ['github_pat_'], pattern: new RegExp(`github_pat_[A-Za-z0-9_]{22,255}${E}`, 'g'), wordStart: true },
  { kind: 'gitlab-token', gate: ['gl'], pattern: new RegExp(`gl(?:pat|dt|rt|ptt|soat|ft|cbt)-[A-Za-z0-9_-]{20,}${E}`, 'g'), wordStart: true },
  { kind: 'slack-webhook', gate: ['hooks.slack.com'], pattern: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]+/g },
  { kind: 'slack-token', gate: ['xox', 'xapp-'], pattern: new RegExp(`(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}${E}`, 'g'), wordStart: true },
  { kind: 'stripe-key', gate: ['_live_', '_test_', 'whsec_'], pattern: new RegExp(`(?:(?:sk|rk|pk)_(?:live|test)|whsec)_[A-Za-z0-9]{16,}${E}`, 'g'), wordStart: true },
  { kind: 'npm-token', gate: ['npm_'], pattern: new RegExp(`npm_[A-Za-z0-9]{36,}${E}`, 'g'), wordStart: true },
  { kind: 'npm-token', gate: ['_authToken='], pattern: /(?<pre>_authToken=)(?<s>(?!\[REDACTED:)[^\s"'$\\][^\s"'\\]*)/g },
  { kind: 'anthropic-key', gate: ['sk-ant-'], pattern: new RegExp(`sk-ant-[A-Za-z0-9_-]{20,}${E}`, 'g'), wordStart: true },
  { kind: 'openai-key', gate: ['sk-'], pattern: new RegExp(`sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,})${E}`, 'g'), wordStart: true },
  { kind: 'jwt', gate: ['eyJ'], pattern: new RegExp(`eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*`, 'g'), wordStart: true },
  {
    kind: 'url-password',
    gate: ['://', ':\\/\\/'],
    // scheme://user:pass@host keeps scheme, user and host, also with JSON-escaped slashes
    // (`mysql:\/\/u:p@h`, as PHP and some loggers write them). The match starts at `:` before
    // the slashes with one scheme character behind it. The password stops at the last `@` of
    // the authority; a `${VAR}` password is left alone by the caller.
    pattern: /(?<pre>:(?:\/\/|\\\/\\\/)(?<=[A-Za-z0-9+.-]:(?:\/\/|\\\/\\\/))[^\s:/?#@"'<>[\]\\]{0,256}:)(?<s>(?!\[REDACTED:)[^\s/?#"'<>\\]{1,256})(?<post>@[A-Za-z0-9[])/g,
  },
  {
    kind: 'auth-header',
    // An Authorization header in any case (CI logs write `authorization: basic …`), with its
    // scheme or none; the value runs to the end of the header.
    gate: ['uthorization', 'UTHORIZATION'],
    // A scheme-less value that is one lower-case word (`authorization: required`) is prose.
    pattern: /(?<pre>\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:basic|bearer|token|bot|digest|negotiate|ntlm|aws4-hmac-sha256|sso-key|apikey)[ \t]+)?)(?<s>(?!\[REDACTED:)(?=[^\s"'\\,;]*[^a-z\s"'\\,;])[^\s"'\\,;]{8,})/gi,
  },
  {
    kind: 'auth-header',
    gate: ['Bearer ', 'Basic ', 'Token ', 'Bot '],
    pattern: /(?<pre>\b(?:Bearer|Basic|Token|Bot) +)(?<s>(?!\[REDACTED:)[A-Za-z0-9._~+/-]{16,}=*)/g,
  },
  {
    kind: 'cookie',
    // `Cookie:` / `Set-Cookie:` headers (and curl's `-b`/`--cookie` values): every name=value
    // pair is a session; the header name stays. A type annotation (`cookie: string`) has no `=`.
    gate: ['ookie', 'OOKIE'],
    pattern: /(?<pre>\b(?:set-)?cookie["']?[ \t]*[:=][ \t]*["']?)(?<s>(?!\[REDACTED:)[^\s"'\\=;,]{1,200}=[^\r\n"'\\]*)/gi,
  },
  {
    kind: 'discord-webhook',
    gate: ['/api/webhooks/'],
    pattern: /(?<pre>discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/)(?<s>(?!\[REDACTED:)[A-Za-z0-9_-]{20,})/g,
  },
  {
    kind: 'teams-webhook',
    // A Microsoft Teams (Office 365) incoming webhook: the path after the host is the credential
    // (the group and tenant ids, the connector's hex id and its owner's id), kept to the host.
    gate: ['webhook.office.com', 'outlook.office.com/webhook', 'outlook.office365.com/webhook'],
    pattern: /(?<pre>(?:[A-Za-z0-9-]+\.)?(?:webhook\.office\.com\/webhookb2|outlook\.office(?:365)?\.com\/webhook(?:b2)?)\/)(?<s>(?!\[REDACTED:)[^\s"'<>`\\]{20,})/g,
  },
  {
    kind: 'telegram-bot-token',
    gate: [':AA'],
    pattern: /(?<![\w:])\d{6,12}:AA[A-Za-z0-9_-]{30,}/g,
  },
  {
    kind: 'aws-secret-access-key',
    // A bare 40-character AWS secret printed next to the word "secret" (a CLI table, a console
    // line): mixed case, since a 40-character hex git object id is not one.
    gate: ['secret', 'Secret', 'SECRET'],
    pattern: /(?<pre>(?:secret|Secret|SECRET)[A-Za-z_ -]{0,24}?[^A-Za-z0-9/+\n]{1,8})(?<s>(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
  },
  {
    kind: 'signed-url',
    // A presigned URL's signature and credential (S3, GCS, CloudFront): hex or URL-safe base64
    // the fallback leaves alone (hex of any length is a hash to it).
    gate: ['Signature=', 'X-Amz-', 'X-Goog-'],
    pattern: /(?<pre>[?&](?:X-(?:Amz|Goog)-(?:Signature|Credential|Security-Token)|Signature)=)(?<s>[^&\s"'#<>]+)/g,
  },
  {
    kind: 'url-key',
    // A key as a URL's user name (a Sentry DSN: `https://<hex32>@o1.ingest.sentry.io/2`).
    gate: ['://'],
    pattern: /(?<pre>:\/\/)(?<s>[0-9a-fA-F]{32,}(?::[0-9a-fA-F]*)?)(?<post>@)/g,
  },
  {
    kind: 'hex-key',
    // 32 or more hex characters beside a key-like name (`encryption key: …`, `"hmacSecret": "…"`,
    // `Your API key is …`): hex alone is a hash or an object id, beside such a name it is a key.
    // Not after a hyphen (`cache-key-<md5>` names a cache entry) nor a key's id (`private_key_id`).
    gate: ['key', 'Key', 'KEY', 'secret', 'Secret', 'SECRET', 'token', 'Token', 'TOKEN', 'dsn', 'DSN', 'hmac', 'salt', 'password', 'Password'],
    pattern: /(?<pre>(?:key|secret|token|dsn|hmac|salt|password|passwd)(?![_-]?ids?\b)[A-Za-z_ -]{0,24}?[^A-Za-z0-9\n-]{1,8})(?<s>[0-9a-fA-F]{32,})(?![0-9a-zA-Z])/gi,
  },
  {
    kind: 'secret-flag',
    gate: ['--'],
    // `--password hunter2` (space-separated CLI flag); the `=` form is an assignment.
    pattern: /(?<pre>(?<![\w-])--(?:password|passwd|pass|passphrase|token|api-key|apikey|secret|client-secret|secret-key|access-token|auth-token|private-token|registry-password|cookie) +)(?<s>(?!\[REDACTED:)[^\s"'$\\-][^\s"'\\]*)/g,
  },
];
