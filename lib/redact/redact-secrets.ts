import { looksLikeEnvFile, redactEnvValues } from './env-file';
import { FindingTally, type RedactionFinding } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';
import { redactCommandCredentials } from './command-credentials';
import { gatesOf } from './gate-filter';
import { redactPrivateKeys } from './private-key-blocks';
import { redactProseSecrets } from './prose-secrets';
import { PROVIDER_TOKENS } from './provider-tokens';
import { redactRandomTokens } from './random-tokens';
import { redactAssignments } from './secret-assignments';
import { SECRET_PATTERNS, type SecretPattern } from './secret-patterns';

const TOKEN_DETECTORS: readonly SecretPattern[] = [...SECRET_PATTERNS, ...PROVIDER_TOKENS];

/** A redacted text and what was redacted in it, by kind. */
export interface RedactionResult {
  text: string;
  findings: RedactionFinding[];
}

/** Every detector's gate once: a text is checked for each in one plain loop. */
const GATES: readonly string[] = [...new Set(TOKEN_DETECTORS.flatMap((d) => d.gate))];
const SHORT_TEXT = 256;

/**
 * The gates `text` holds, or null for none (most texts): one check per gate instead of one per
 * detector and gate. A hook redacts each string of a record, a capsule and its state once, mostly
 * in code V8 has not compiled yet, where every call counts: the per-detector closures cost
 * ~5 ms of CPU per hook on 60 short strings, this loop a fraction of it. Short texts are
 * searched as they are; longer ones through the trigram table (gate-filter.ts).
 */
function presentGates(text: string): Set<string> | null {
  const table = text.length < SHORT_TEXT ? null : gatesOf(text);
  let present: Set<string> | null = null;
  for (let i = 0; i < GATES.length; i += 1) {
    const gate = GATES[i]!;
    if (table === null ? text.includes(gate) : table.has(gate)) (present ??= new Set()).add(gate);
  }
  return present;
}

/** True when `at` starts a word: no `[A-Za-z0-9_-]` before it, or a JSON `\n` / `\t` escape. */
function startsWord(text: string, at: number): boolean {
  if (at === 0 || !/[A-Za-z0-9_-]/.test(text[at - 1] as string)) return true;
  return at >= 2 && text[at - 2] === '\\' && /[nrt]/.test(text[at - 1] as string);
}

/**
 * Runs every detector over `text`, counting into `tally`: private-key blocks, the token formats
 * (structural ones, then provider prefixes), credentials given to well-known commands, values of
 * secret-named assignments, secrets written in prose, and last the fallback for long random
 * tokens, so a secret a rule knows is named by its kind. Each detector is linear in the text.
 */
export function redactInto(text: string, tally: FindingTally): string {
  const present = presentGates(text);
  let out = redactPrivateKeys(text, tally);
  for (const { kind, gate, pattern, wordStart } of TOKEN_DETECTORS) {
    if (gate.length > 0 && (present === null || !gate.some((g) => present.has(g)))) continue;
    out = out.replace(pattern, (match: string, ...rest: unknown[]) => {
      const last = rest[rest.length - 1];
      const groups = typeof last === 'object' && last !== null ? (last as Record<string, string | undefined>) : undefined;
      const whole = rest[rest.length - (groups ? 2 : 1)] as string;
      if (wordStart === true && !startsWord(whole, rest[rest.length - (groups ? 3 : 2)] as number)) return match;
      if (groups?.s === undefined) {
        tally.add(kind);
        return redactionMarker(kind);
      }
      if (isPlaceholderValue(groups.s)) return match;
      tally.add(kind);
      return `${groups.pre ?? ''}${redactionMarker(kind)}${groups.post ?? ''}`;
    });
  }
  out = redactCommandCredentials(out, tally);
  out = redactAssignments(out, tally);
  out = redactProseSecrets(out, tally);
  return redactRandomTokens(out, tally);
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
