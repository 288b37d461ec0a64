import { looksLikeEnvFile, redactEnvValues } from './env-file';
import { FindingTally, type RedactionFinding } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';
import { assignmentKind } from './secret-assignments';
import { isSecretName } from './secret-names';
import { redactInto } from './redact-secrets';
import { maskOpaqueTokens, type OpaqueOptions } from './opaque-tokens';
import { allowListArgv, allowListCommand } from './command-allow-list';

const SINGLE_MARKER = /^\[REDACTED:[a-z0-9-]+\]$/;

/** A redacted copy of a JSON-ish value and what was redacted in it, by kind. */
export interface DeepRedactionResult<T> {
  value: T;
  findings: RedactionFinding[];
}

function redactString(text: string, tally: FindingTally, opts: WalkOptions = {}): string {
  const found = redactInto(text, tally);
  const out = looksLikeEnvFile(found) ? redactEnvValues(found, tally) : found;
  return opts.opaque === undefined ? out : maskOpaqueTokens(out, tally, opts.opaque);
}

/** The value of a secret-named field: its own detections when they cover it whole, else one marker for all of it. */
function redactSecretField(key: string, value: string | number, tally: FindingTally, opts: WalkOptions): string | number {
  if (typeof value === 'string') {
    if (value.length === 0 || isPlaceholderValue(value)) return value;
    const inner = new FindingTally();
    const out = redactString(value, inner, opts);
    if (SINGLE_MARKER.test(out)) {
      tally.merge(inner.list());
      return out;
    }
  }
  const kind = assignmentKind(key);
  tally.add(kind);
  return redactionMarker(kind);
}

/** Strings shorter than this hold no secret a detector could tell from text (a secret-named field is judged by its name). */
const MIN_REDACTED_LENGTH = 6;

/** Keys at least this long are redacted like values (field names are shorter). */
const MIN_REDACTED_KEY = 24;

interface WalkOptions {
  skipKeys?: ReadonlySet<string>;
  /** Also mask opaque tokens (opaque-tokens.ts): for text that is kept (a capsule, the runtime state). */
  opaque?: OpaqueOptions;
  /** Keys whose string (or argument vector) is a shell command: kept through the allow-list (command-allow-list.ts). */
  commandKeys?: ReadonlySet<string>;
  /** Keys whose string is JSON (a tool call's `arguments`): parsed, walked, written back. */
  jsonKeys?: ReadonlySet<string>;
}

/** A command field's value: redacted, then through the allow-list. */
function redactCommand(value: unknown, tally: FindingTally, copies: WeakMap<object, unknown>, opts: WalkOptions): unknown {
  if (typeof value === 'string') return allowListCommand(redactString(value, tally, opts));
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return allowListArgv((value as string[]).map((v) => redactString(v, tally, opts)));
  return walk(value, tally, copies, opts);
}

/** A JSON-text field's value: its document walked (commands in it kept through the allow-list), else the string redacted. */
function redactJsonText(value: string, tally: FindingTally, copies: WeakMap<object, unknown>, opts: WalkOptions): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return redactString(value, tally, opts);
  }
  return typeof parsed === 'object' && parsed !== null ? JSON.stringify(walk(parsed, tally, copies, opts)) : redactString(value, tally, opts);
}

function walk(value: unknown, tally: FindingTally, copies: WeakMap<object, unknown>, opts: WalkOptions): unknown {
  if (typeof value === 'string') return value.length < MIN_REDACTED_LENGTH ? value : redactString(value, tally, opts);
  if (typeof value !== 'object' || value === null) return value;
  const seen = copies.get(value);
  if (seen !== undefined) return seen;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    copies.set(value, out);
    for (const item of value) out.push(walk(item, tally, copies, opts));
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value; // Date, Buffer, class instances: not JSON-ish
  const out: Record<string, unknown> = {};
  copies.set(value, out);
  for (const [k, v] of Object.entries(value)) {
    // A key can be data too (a map from commands to their failures): long ones are redacted.
    const key = k.length >= MIN_REDACTED_KEY ? redactString(k, tally, opts) : k;
    if (opts.skipKeys?.has(k) && typeof v === 'string') out[key] = v;
    else if (opts.commandKeys?.has(k)) out[key] = redactCommand(v, tally, copies, opts);
    else if (opts.jsonKeys?.has(k) && typeof v === 'string') out[key] = redactJsonText(v, tally, copies, opts);
    else out[key] = (typeof v === 'string' || typeof v === 'number') && isSecretName(k) ? redactSecretField(k, v, tally, opts) : walk(v, tally, copies, opts);
  }
  return out;
}

/**
 * Returns a redacted deep copy of a JSON-ish value (a parsed transcript record, a tool input):
 * every string goes through the same detectors as `redactSecrets`, and a string or number under a
 * secret-named key (`password`, `apiKey`, `client_secret`…) is replaced whole. Plain objects and
 * arrays are copied (cycles kept as cycles); other objects are returned as they are. Strings under
 * `skipKeys` (a host's opaque signatures) are kept as they are. With `opaque`, every string's
 * opaque tokens are masked as well (text that is kept). Never throws.
 *
 * @example
 * redactDeep({ input: { command: 'curl -H "Authorization: Bearer eyJ…"' }, password: 'hunter2' }).value
 */
export function redactDeep<T>(value: T, opts: WalkOptions = {}): DeepRedactionResult<T> {
  const tally = new FindingTally();
  const out = walk(value, tally, new WeakMap(), opts) as T;
  return { value: out, findings: tally.list() };
}
