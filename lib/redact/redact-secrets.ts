import { looksLikeEnvFile, redactEnvValues } from './env-file';
import { FindingTally, type RedactionFinding } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';
import { COMMAND_CUES, redactCommandCredentials } from './command-credentials';
import { CALL_CUES, redactCallCredentials } from './call-credentials';
import { cueScanner } from './cue-scan';
import { FILE_PRINT_CUES, redactSecretFileOutput } from './secret-file-output';
import { PRIVATE_KEY_CUE, redactPrivateKeys } from './private-key-blocks';
import { hasForeignCue, PROSE_CUES, redactProseSecrets } from './prose-secrets';
import { PROVIDER_TOKENS } from './provider-tokens';
import { mayHoldRandomToken, redactRandomTokens } from './random-tokens';
import { ASSIGNMENT_CUES, redactAssignments } from './secret-assignments';
import { SECRET_PATTERNS, type SecretPattern } from './secret-patterns';
import { startsToken } from './token-start';
import { maskOpaqueTokens, type OpaqueOptions } from './opaque-tokens';

const TOKEN_DETECTORS: readonly SecretPattern[] = [...SECRET_PATTERNS, ...PROVIDER_TOKENS];
const NON_ASCII = /[^\x00-\x7f]/;

/** A redacted text and what was redacted in it, by kind. */
export interface RedactionResult {
  text: string;
  findings: RedactionFinding[];
}

const TOKENS = 1;
const PRIVATE_KEY = 2;
const COMMANDS = 4;
const ASSIGNMENTS = 8;
const PROSE = 16;
const CALLS = 32;
const FILE_PRINTS = 64;

/** Every detector's literals, found in one pass (cue-scan.ts). */
const scanCues = cueScanner([
  ...TOKEN_DETECTORS.flatMap((d) => d.gate.map((text) => ({ text, families: TOKENS }))),
  { text: PRIVATE_KEY_CUE, families: PRIVATE_KEY },
  ...COMMAND_CUES.map((text) => ({ text, families: COMMANDS })),
  ...ASSIGNMENT_CUES.map((text) => ({ text, families: ASSIGNMENTS })),
  ...PROSE_CUES.map((text) => ({ text, families: PROSE })),
  ...CALL_CUES.map((text) => ({ text, families: CALLS })),
  ...FILE_PRINT_CUES.map((text) => ({ text, families: FILE_PRINTS })),
]);

/**
 * Runs every detector over `text`, counting into `tally`: private-key blocks, the token formats
 * (structural ones, then provider prefixes), credentials given to well-known commands, values of
 * secret-named assignments, secrets written in prose, and last the fallback for long random
 * tokens, so a secret a rule knows is named by its kind. Each detector is linear in the text, and
 * runs only when the text holds a literal it needs (most strings hold none).
 */
export function redactInto(text: string, tally: FindingTally): string {
  const found = scanCues(text);
  const families = found?.families ?? 0;
  let out = families & PRIVATE_KEY ? redactPrivateKeys(text, tally) : text;
  if (families & TOKENS) {
    const present = found!.cues;
    for (const { kind, gate, pattern, wordStart } of TOKEN_DETECTORS) {
      if (!gate.some((g) => present.has(g))) continue;
      out = out.replace(pattern, (match: string, ...rest: unknown[]) => {
        const last = rest[rest.length - 1];
        const groups = typeof last === 'object' && last !== null ? (last as Record<string, string | undefined>) : undefined;
        const whole = rest[rest.length - (groups ? 2 : 1)] as string;
        if (wordStart === true && !startsToken(whole, rest[rest.length - (groups ? 3 : 2)] as number, match)) return match;
        if (groups?.s === undefined) {
          tally.add(kind);
          return redactionMarker(kind);
        }
        if (isPlaceholderValue(groups.s)) return match;
        tally.add(kind);
        return `${groups.pre ?? ''}${redactionMarker(kind)}${groups.post ?? ''}`;
      });
    }
  }
  // The cues come from the text as given. A marker written above adds words (`[REDACTED:npm-token]`)
  // but always closes them with its `]`, which none of the three reads as a separator, so they
  // find nothing new in it (the same output as running all three, on 54,798 texts of the corpora).
  if (families & COMMANDS) out = redactCommandCredentials(out, tally);
  if (families & ASSIGNMENTS) out = redactAssignments(out, tally);
  if (families & CALLS) out = redactCallCredentials(out, tally);
  if (families & FILE_PRINTS) out = redactSecretFileOutput(out, tally);
  // A password word in other letters (`Passwort` is in the cue scan, `пароль` and `密码` are not).
  const foreign = NON_ASCII.test(text) && hasForeignCue(text);
  if (families & PROSE || foreign) out = redactProseSecrets(out, tally, foreign);
  return mayHoldRandomToken(out) ? redactRandomTokens(out, tally) : out;
}

/**
 * Replaces every secret in `text` with `[REDACTED:<kind>]`: provider tokens (AWS, GCP, Azure,
 * GitHub, GitLab, Slack, Stripe, npm, OpenAI, Anthropic, Vault, Hugging Face, SendGrid and some
 * sixty more prefixed formats), JWTs, private-key blocks, URL passwords (also JSON-escaped),
 * Authorization and Cookie headers, command-line credentials, values of secret-named assignments,
 * secrets written in prose, long random tokens, and every value when the whole text is a `.env` file.
 * Pure and synchronous; never throws. For transcript records prefer `redactDeep`: a `.env` file
 * escaped inside a raw JSONL line is not recognisable as one.
 *
 * @example
 * redactSecrets('export GITHUB_TOKEN=ghp_…').text // 'export GITHUB_TOKEN=[REDACTED:github-token]'
 */
export function redactSecrets(text: string): RedactionResult {
  const tally = new FindingTally();
  let out = redactInto(text, tally);
  if (looksLikeEnvFile(out)) out = redactEnvValues(out, tally);
  return { text: out, findings: tally.list() };
}

/**
 * Redacts a text known to be a `.env` file (a tool read `.env*`): the secrets `redactSecrets`
 * finds, then every remaining value except switches and small numbers, as `env-value`.
 */
export function redactEnvFile(text: string): RedactionResult {
  const tally = new FindingTally();
  const out = redactEnvValues(redactInto(text, tally), tally);
  return { text: out, findings: tally.list() };
}

/**
 * `redactSecrets` for text that is kept (a capsule, a prompt in the runtime state): the rules
 * above name what they know, then every opaque token left is masked (opaque-tokens.ts).
 *
 * @example redactKeptText('Mein Kennwort ist Wsdh30^BKcU8Bb1').text // 'Mein Kennwort ist [REDACTED:opaque-token]'
 */
export function redactKeptText(text: string, opts: OpaqueOptions = {}): RedactionResult {
  const tally = new FindingTally();
  let out = redactInto(text, tally);
  if (looksLikeEnvFile(out)) out = redactEnvValues(out, tally);
  out = maskOpaqueTokens(out, tally, opts);
  return { text: out, findings: tally.list() };
}
