import { looksLikeEnvFile, redactEnvValues } from './env-file';
import { FindingTally, type RedactionFinding } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';
import { assignmentKind } from './secret-assignments';
import { isSecretName } from './secret-names';
import { redactInto } from './redact-secrets';

const SINGLE_MARKER = /^\[REDACTED:[a-z0-9-]+\]$/;

/** A redacted copy of a JSON-ish value and what was redacted in it, by kind. */
export interface DeepRedactionResult<T> {
  value: T;
  findings: RedactionFinding[];
}

function redactString(text: string, tally: FindingTally): string {
  const out = redactInto(text, tally);
  return looksLikeEnvFile(out) ? redactEnvValues(out, tally) : out;
}

/** The value of a secret-named field: its own detections when they cover it whole, else one marker for all of it. */
function redactSecretField(key: string, value: string | number, tally: FindingTally): string | number {
  if (typeof value === 'string') {
    if (value.length === 0 || isPlaceholderValue(value)) return value;
    const inner = new FindingTally();
    const out = redactString(value, inner);
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
}

function walk(value: unknown, tally: FindingTally, copies: WeakMap<object, unknown>, opts: WalkOptions): unknown {
  if (typeof value === 'string') return value.length < MIN_REDACTED_LENGTH ? value : redactString(value, tally);
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
    const key = k.length >= MIN_REDACTED_KEY ? redactString(k, tally) : k;
    if (opts.skipKeys?.has(k) && typeof v === 'string') out[key] = v;
    else out[key] = (typeof v === 'string' || typeof v === 'number') && isSecretName(k) ? redactSecretField(k, v, tally) : walk(v, tally, copies, opts);
  }
  return out;
}

/**
 * Returns a redacted deep copy of a JSON-ish value (a parsed transcript record, a tool input):
 * every string goes through the same detectors as `redactSecrets`, and a string or number under a
 * secret-named key (`password`, `apiKey`, `client_secret`…) is replaced whole. Plain objects and
 * arrays are copied (cycles kept as cycles); other objects are returned as they are. Strings under
 * `skipKeys` (a host's opaque signatures) are kept as they are. Never throws.
 *
 * @example
 * redactDeep({ input: { command: 'curl -H "Authorization: Bearer eyJ…"' }, password: 'hunter2' }).value
 */
export function redactDeep<T>(value: T, opts: WalkOptions = {}): DeepRedactionResult<T> {
  const tally = new FindingTally();
  const out = walk(value, tally, new WeakMap(), opts) as T;
  return { value: out, findings: tally.list() };
}
