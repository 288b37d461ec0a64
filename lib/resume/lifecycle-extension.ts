import { hasFoldedCharacter, inert } from '../capsule/inert';
import { CAPSULE_ID_PLACEHOLDER, preloadPrefix, regroundPrefix, RESUME_ACK_PREFIX } from './declared-lines';

/** Where an install declares its extension, relative to the project's top level. */
export const LIFECYCLE_EXTENSION_PATH = '.capsule/lifecycle-extension.json';
export const SCHEMA_V1 = 'LifecycleExtension/v1';
export const SCHEMA_V2 = 'LifecycleExtension/v2';
/** Longest declared line, measured after substitution with the id budget below. */
export const DECLARED_LINE_MAX = 500;
/** Characters `{capsule_id}` is charged when measuring, so an accepted line never renders truncated. */
export const CAPSULE_ID_BUDGET = 64;
/** Lines per declared array (at least one). */
export const DECLARED_ARRAY_MAX = 24;
/**
 * Bound on every declared line of the resume text together, prefixes included: Claude Code
 * replaces hook output over 10,000 characters with a file path, and the procedure never shrinks,
 * so a declaration that could not fit beside the core procedure is refused instead of truncated.
 */
export const DECLARED_TOTAL_MAX = 3800;

const ACK_FIELDS = ['resume_ack', 'capsule_ack'] as const;
const ARRAY_FIELDS = ['resume_preload', 'resume_reground'] as const;
const KEYS: Record<string, readonly string[]> = {
  [SCHEMA_V1]: ['schema', ...ACK_FIELDS],
  [SCHEMA_V2]: ['schema', ...ACK_FIELDS, ...ARRAY_FIELDS],
};
const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/;

/** A declaration that passed every rule. */
export interface LifecycleExtension {
  schema: string;
  resume_ack?: string;
  capsule_ack?: string;
  resume_preload?: string[];
  resume_reground?: string[];
}

/** Why a declaration was refused: a stable rule name, where, and a one-line message safe to print. */
export interface ExtensionRefusal {
  rule: string;
  field?: string;
  /** 1-based index of the bad element of an array field. */
  index?: number;
  message: string;
}

export type ExtensionCheck = { ok: true; extension: LifecycleExtension } | { ok: false; refusal: ExtensionRefusal };

/**
 * Parses and checks a declaration's text against every rule of LifecycleExtension/v1 and /v2.
 * A declaration is accepted whole or refused whole: a half-armed handshake looks like a working one.
 */
export function checkLifecycleExtensionText(text: string): ExtensionCheck {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return refuse('malformed-json', `not JSON (${err instanceof Error ? err.message.slice(0, 120) : 'parse error'})`);
  }
  return checkLifecycleExtension(raw);
}

/** Checks an already-parsed declaration (see `checkLifecycleExtensionText`). */
export function checkLifecycleExtension(raw: unknown): ExtensionCheck {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return refuse('not-an-object', 'the declaration must be a JSON object');
  const record = raw as Record<string, unknown>;
  const schema = record.schema;
  if (typeof schema !== 'string' || !KEYS[schema]) {
    return refuse('unsupported-schema', `schema ${inert(schema, { max: 60 })} is not ${SCHEMA_V1} or ${SCHEMA_V2}`, 'schema');
  }
  for (const key of Object.keys(record)) {
    if (!KEYS[schema]!.includes(key)) return refuse('unsupported-key', `unsupported key ${inert(key, { max: 60 })} for ${schema}`, key);
  }
  for (const field of ACK_FIELDS) {
    if (!(field in record)) continue;
    const problem = checkLine(record[field], field);
    if (problem) return { ok: false, refusal: problem };
    if (countPlaceholders(record[field] as string) > 1) return refuse('capsule-id-repeated', `${field} uses ${CAPSULE_ID_PLACEHOLDER} more than once`, field);
  }
  for (const field of ARRAY_FIELDS) {
    if (!(field in record)) continue;
    const value = record[field];
    if (!Array.isArray(value)) return refuse('not-an-array', `${field} must be an array of 1 to ${DECLARED_ARRAY_MAX} lines`, field);
    if (value.length < 1 || value.length > DECLARED_ARRAY_MAX) {
      return refuse('array-size', `${field} has ${value.length} lines; it must have 1 to ${DECLARED_ARRAY_MAX}`, field);
    }
    for (const [i, element] of value.entries()) {
      const where = `${field} element ${i + 1}`;
      const problem = checkLine(element, where);
      if (problem) return { ok: false, refusal: { ...problem, field, index: i + 1 } };
      if (countPlaceholders(element as string) > 0) {
        return { ok: false, refusal: { rule: 'capsule-id-in-array', field, index: i + 1, message: `${where} carries ${CAPSULE_ID_PLACEHOLDER}; a procedure line has nowhere to substitute an id` } };
      }
    }
  }
  const extension = record as unknown as LifecycleExtension;
  const total = declaredResumeLength(extension);
  if (total > DECLARED_TOTAL_MAX) {
    return refuse('total-too-long', `the resume lines declared come to ${total} characters; the resume text reserves ${DECLARED_TOTAL_MAX} for them`);
  }
  return { ok: true, extension };
}

/** Length of `line` as rendered with `{capsule_id}` charged CAPSULE_ID_BUDGET characters. */
export function measuredLength(line: string): number {
  return line.split(CAPSULE_ID_PLACEHOLDER).join('x'.repeat(CAPSULE_ID_BUDGET)).length;
}

function checkLine(value: unknown, where: string): ExtensionRefusal | null {
  const field = where.split(' ')[0];
  if (typeof value !== 'string') return { rule: 'not-a-string', field, message: `${where} must be a string` };
  if (value.trim() === '') return { rule: 'empty', field, message: `${where} is empty` };
  if (LINE_BREAK.test(value)) return { rule: 'line-break', field, message: `${where} holds a line-breaking character; a declared line is one line` };
  if (hasFoldedCharacter(value)) return { rule: 'control-character', field, message: `${where} holds a control, bidi or invisible formatting character` };
  const length = measuredLength(value);
  if (length > DECLARED_LINE_MAX) {
    return { rule: 'too-long', field, message: `${where} is ${length} characters measured with a ${CAPSULE_ID_BUDGET}-character id; at most ${DECLARED_LINE_MAX}` };
  }
  return null;
}

function countPlaceholders(line: string): number {
  return line.split(CAPSULE_ID_PLACEHOLDER).length - 1;
}

function declaredResumeLength(ext: LifecycleExtension): number {
  let total = 0;
  (ext.resume_preload ?? []).forEach((line, i) => (total += preloadPrefix(i + 1).length + measuredLength(line) + 1));
  (ext.resume_reground ?? []).forEach((line, i) => (total += regroundPrefix(i + 1).length + measuredLength(line) + 1));
  if (ext.resume_ack !== undefined) total += RESUME_ACK_PREFIX.length + measuredLength(ext.resume_ack) + 1;
  return total;
}

function refuse(rule: string, message: string, field?: string): ExtensionCheck {
  return { ok: false, refusal: field === undefined ? { rule, message } : { rule, field, message } };
}
