// Fake, generated secrets in the providers' real shapes, planted where a coding session meets
// them: tool inputs, tool outputs, user prompts, file contents. Seeded, so every run is the same.
import { seededRandom } from '../support/seeded-random';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = ALNUM + '+/';
const URLSAFE = ALNUM + '-_';

/** A planted secret: the value that must not survive, and its detector kind. */
export interface PlantedSecret {
  kind: string;
  /** The exact secret text; none of it may survive redaction. */
  value: string;
  /** The whole line or block as it appears in a session (the value inside its context). */
  context: string;
}

type Maker = (pick: (alphabet: string, n: number) => string) => Omit<PlantedSecret, 'context'> & { context?: (v: string) => string };

function base64url(json: string): string {
  return Buffer.from(json).toString('base64url');
}

function pemBody(pick: (a: string, n: number) => string, lines: number, sep: string): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(pick(B64, 64));
  return out.join(sep);
}

/** One maker per secret shape the redactor must cover; `context` places the value as a session shows it. */
const MAKERS: Maker[] = [
  (p) => ({ kind: 'aws-access-key-id', value: `AKIA${p(UPPER + DIGITS, 16)}`, context: (v) => `aws_access_key_id = ${v}` }),
  (p) => ({ kind: 'aws-access-key-id', value: `ASIA${p(UPPER + DIGITS, 16)}`, context: (v) => `"AccessKeyId": "${v}",` }),
  (p) => ({ kind: 'aws-secret-access-key', value: p(B64, 40), context: (v) => `aws_secret_access_key = ${v}` }),
  (p) => ({ kind: 'aws-secret-access-key', value: p(B64, 40), context: (v) => `"SecretAccessKey": "${v}",` }),
  (p) => ({ kind: 'aws-secret-access-key', value: p(B64, 40), context: (v) => `export AWS_SECRET_ACCESS_KEY=${v}` }),
  (p) => ({ kind: 'secret-assignment', value: p(B64, 300), context: (v) => `"SessionToken": "${v}"` }),
  (p) => ({ kind: 'gcp-api-key', value: `AIza${p(URLSAFE, 35)}`, context: (v) => `const mapsKey = "${v}";` }),
  (p) => ({ kind: 'private-key', value: pemBody(p, 12, '\\n'), context: (v) => `"private_key": "-----BEGIN PRIVATE KEY-----\\n${v}\\n-----END PRIVATE KEY-----\\n",` }),
  (p) => ({ kind: 'secret-assignment', value: p('0123456789abcdef', 40), context: (v) => `"private_key_id": "${v}",` }),
  (p) => ({ kind: 'gcp-oauth-secret', value: `GOCSPX-${p(URLSAFE, 28)}`, context: (v) => `client_secret_is ${v}` }),
  (p) => ({ kind: 'azure-storage-key', value: `${p(B64, 86)}==`, context: (v) => `DefaultEndpointsProtocol=https;AccountName=acct1;AccountKey=${v};EndpointSuffix=core.windows.net` }),
  (p) => ({ kind: 'azure-connection-string', value: `${p(B64, 43)}=`, context: (v) => `Endpoint=sb://ns1.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${v}` }),
  (p) => ({ kind: 'azure-sas-signature', value: `${p(ALNUM, 40)}%3D`, context: (v) => `https://acct1.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&sig=${v}` }),
  (p) => ({ kind: 'azure-client-secret', value: `${p(ALNUM, 3)}8Q~${p(ALNUM + '_~.-', 34)}`, context: (v) => `tenant app secret ${v}` }),
  (p) => ({ kind: 'github-token', value: `ghp_${p(ALNUM, 36)}`, context: (v) => `git clone https://${v}@github.com/org/repo.git` }),
  (p) => ({ kind: 'github-token', value: `gho_${p(ALNUM, 36)}`, context: (v) => `oauth_token: ${v}` }),
  (p) => ({ kind: 'github-token', value: `ghu_${p(ALNUM, 36)}`, context: (v) => `user token ${v} expired` }),
  (p) => ({ kind: 'github-token', value: `ghs_${p(ALNUM, 36)}`, context: (v) => `GH_TOKEN=${v} gh pr list` }),
  (p) => ({ kind: 'github-token', value: `ghr_${p(ALNUM, 36)}`, context: (v) => `refresh=${v}` }),
  (p) => ({ kind: 'github-token', value: `github_pat_${p(ALNUM, 22)}_${p(ALNUM, 59)}`, context: (v) => `Authorization: token ${v}` }),
  (p) => ({ kind: 'gitlab-token', value: `glpat-${p(URLSAFE, 20)}`, context: (v) => `PRIVATE-TOKEN: ${v}` }),
  (p) => ({ kind: 'slack-token', value: `xoxb-${p(DIGITS, 12)}-${p(DIGITS, 13)}-${p(ALNUM, 24)}`, context: (v) => `client = WebClient(token="${v}")` }),
  (p) => ({ kind: 'slack-token', value: `xoxp-${p(DIGITS, 12)}-${p(DIGITS, 12)}-${p(DIGITS, 13)}-${p('0123456789abcdef', 32)}`, context: (v) => `slack ${v}` }),
  (p) => ({ kind: 'slack-webhook', value: `T${p(UPPER + DIGITS, 10)}/B${p(UPPER + DIGITS, 10)}/${p(ALNUM, 24)}`, context: (v) => `curl -X POST https://hooks.slack.com/services/${v} -d '{"text":"hi"}'` }),
  (p) => ({ kind: 'stripe-key', value: `sk_live_${p(ALNUM, 24)}`, context: (v) => `Stripe.api_key = '${v}'` }),
  (p) => ({ kind: 'stripe-key', value: `rk_live_${p(ALNUM, 24)}`, context: (v) => `restricted ${v}` }),
  (p) => ({ kind: 'stripe-key', value: `sk_test_${p(ALNUM, 24)}`, context: (v) => `stripe listen --api-key ${v}` }),
  (p) => ({ kind: 'npm-token', value: `npm_${p(ALNUM, 36)}`, context: (v) => `//registry.npmjs.org/:_authToken=${v}` }),
  (p) => ({ kind: 'npm-token', value: p('0123456789abcdef', 8) + '-' + p('0123456789abcdef', 4), context: (v) => `//npm.example.com/:_authToken=${v}` }),
  (p) => ({ kind: 'openai-key', value: `sk-${p(ALNUM, 20)}T3BlbkFJ${p(ALNUM, 20)}`, context: (v) => `openai.api_key = "${v}"` }),
  (p) => ({ kind: 'openai-key', value: `sk-proj-${p(URLSAFE, 74)}T3BlbkFJ${p(URLSAFE, 74)}`, context: (v) => `OPENAI_API_KEY=${v}` }),
  (p) => ({ kind: 'openai-key', value: `sk-proj-${p(URLSAFE, 48)}`, context: (v) => `use key ${v} for the eval` }),
  (p) => ({ kind: 'anthropic-key', value: `sk-ant-api03-${p(URLSAFE, 93)}AA`, context: (v) => `x-api-key: ${v}` }),
  (p) => ({ kind: 'anthropic-key', value: `sk-ant-oat01-${p(URLSAFE, 60)}`, context: (v) => `my claude token is ${v}` }),
  (p) => ({
    kind: 'jwt',
    value: `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify({ sub: p(DIGITS, 10), name: 'Jane', iat: 1700000000 }))}.${p(URLSAFE, 43)}`,
    context: (v) => `curl -H "Authorization: Bearer ${v}" https://api.example.com/me`,
  }),
  (p) => ({ kind: 'jwt', value: `${base64url('{"alg":"RS256","kid":"k1"}')}.${base64url(`{"iss":"https://idp","exp":${p(DIGITS, 10)}}`)}.${p(URLSAFE, 342)}`, context: (v) => `id_token ${v}` }),
  (p) => ({ kind: 'private-key', value: pemBody(p, 25, '\n'), context: (v) => `-----BEGIN RSA PRIVATE KEY-----\n${v}\n-----END RSA PRIVATE KEY-----` }),
  (p) => ({ kind: 'private-key', value: pemBody(p, 6, '\n'), context: (v) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${v}\n-----END OPENSSH PRIVATE KEY-----\n` }),
  (p) => ({ kind: 'private-key', value: pemBody(p, 5, '\n'), context: (v) => `-----BEGIN EC PRIVATE KEY-----\n${v}` }),
  (p) => ({ kind: 'private-key', value: pemBody(p, 8, '\n'), context: (v) => `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${v}\n-----END ENCRYPTED PRIVATE KEY-----` }),
  (p) => ({ kind: 'url-password', value: `${p(ALNUM, 10)}!${p(ALNUM, 5)}`, context: (v) => `DATABASE_URL=postgres://app_user:${v}@db.internal:5432/app` }),
  (p) => ({ kind: 'url-password', value: `${p(ALNUM, 12)}`, context: (v) => `redis://:${v}@cache.local:6379/0` }),
  (p) => ({ kind: 'url-password', value: `${p(ALNUM, 8)}@${p(ALNUM, 4)}`, context: (v) => `mongodb+srv://admin:${v}@cluster0.example.net/db` }),
  (p) => ({ kind: 'secret-assignment', value: `${p(LOWER, 6)}${p(DIGITS, 3)}`, context: (v) => `password=${v}` }),
  (p) => ({ kind: 'secret-assignment', value: `${p(ALNUM, 14)}#!`, context: (v) => `  db_password: "${v}"` }),
  (p) => ({ kind: 'secret-assignment', value: p(LOWER, 9), context: (v) => `    password: ${v}` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 32), context: (v) => `{"client_secret": "${v}", "client_id": "abc"}` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 24), context: (v) => `apiKey: '${v}',` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 24), context: (v) => `const API_KEY = "${v}";` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 20), context: (v) => `SECRET_KEY_BASE=${v}` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 20), context: (v) => `mysql --user=root --password=${v} app` }),
  (p) => ({ kind: 'secret-flag', value: p(ALNUM, 16), context: (v) => `psql --password ${v} -h db` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 30), context: (v) => `https://api.example.com/v1/items?access_token=${v}&page=2` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 18), context: (v) => `DB_PASS=${v}` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 26), context: (v) => `private_key: ${v}` }),
  (p) => ({ kind: 'secret-assignment', value: p(ALNUM, 26), context: (v) => `auth: "${v}"` }),
  (p) => ({ kind: 'auth-header', value: Buffer.from(`admin:${p(ALNUM, 12)}`).toString('base64'), context: (v) => `Authorization: Basic ${v}` }),
  (p) => ({ kind: 'auth-header', value: p(URLSAFE + '.', 40), context: (v) => `-H 'Authorization: Bearer ${v}'` }),
];

/** Generates `rounds` instances of every secret shape with a PRNG seeded by `seed`. */
export function generateSecrets(seed: number, rounds = 1): PlantedSecret[] {
  const rand = seededRandom(seed);
  const pick = (alphabet: string, n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    return s;
  };
  const out: PlantedSecret[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const make of MAKERS) {
      const { kind, value, context } = make(pick);
      out.push({ kind, value, context: context ? context(value) : value });
    }
  }
  return out;
}

/** A fake `.env` file of `n` assorted variables; every value except the switches and ports must go. */
export function generateEnvFile(seed: number): { text: string; secrets: string[] } {
  const rand = seededRandom(seed);
  const pick = (alphabet: string, n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
    return s;
  };
  const secrets = [pick(ALNUM, 24), pick(LOWER, 10), `${pick(ALNUM, 12)} ${pick(ALNUM, 6)}`, pick(ALNUM, 20), pick(LOWER + DIGITS, 16)];
  const text = [
    '# local settings — never commit',
    'NODE_ENV=development',
    'PORT=3000',
    `SESSION_SIGNING=${secrets[0]}`,
    `export MAILER_LOGIN=${secrets[1]}`,
    `SMTP_GREETING="${secrets[2]}"`,
    '',
    `SENTRY_DSN_PART='${secrets[3]}'`,
    `INTERNAL_HOOK=${secrets[4]} # rotated monthly`,
    'DEBUG=false',
  ].join('\n');
  return { text, secrets };
}

/** A middle slice of a secret: a partial leak is still a leak. */
export function secretCore(value: string): string {
  if (value.length <= 12) return value;
  const start = Math.floor((value.length - 12) / 2);
  return value.slice(start, start + 12);
}
