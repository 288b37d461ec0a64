import { checkContentGate } from './content-gate';
import { parseCreatedAt } from './created-at';
import validateSchema from './generated/capsule-schema.js';
import { parseCapsuleFrontmatter } from './parse';
import { STATUSES, type Frontmatter, type Problem, type ValidationResult } from './types';

/** The fields a capsule must carry, non-empty, to be resumable. */
export const REQUIRED_FIELDS = ['id', 'objective', 'waiting_on', 'next_valid_action', 'created_at', 'status'] as const;

/**
 * The one place a capsule is judged resumable: parse, schema, required fields, `waiting_on`
 * never bare null, `created_at` with its offset, `status` in the vocabulary, and the content
 * gate. No problems means resumable. Never throws.
 *
 * @example validateCapsuleText(text).problems.map((p) => p.code) // ['WAITING_ON_NULL']
 */
export function validateCapsuleText(text: string): ValidationResult {
  // The body is never judged: only the frontmatter is read (parseCapsule's problems, not its sections).
  const parsed = parseCapsuleFrontmatter(text);
  if (parsed.frontmatter === null) return { fields: {}, problems: parsed.problems };
  return validateFrontmatter(parsed.frontmatter);
}

/** Validates already-parsed frontmatter (see `validateCapsuleText`). */
export function validateFrontmatter(fm: Frontmatter): ValidationResult {
  const problems: Problem[] = [];
  for (const field of REQUIRED_FIELDS) {
    const value = fm[field];
    if (field === 'waiting_on' && value === null) {
      problems.push({ code: 'WAITING_ON_NULL', field, message: 'waiting_on is bare null; write what a fresh session needs, or an explicit unknown marker' });
    } else if (value === undefined || value === null) {
      problems.push({ code: 'MISSING_REQUIRED_FIELD', field, message: `required field ${field} is missing` });
    } else if (typeof value === 'string' && value.trim() === '') {
      problems.push({ code: 'EMPTY_FIELD', field, message: `required field ${field} is empty` });
    }
  }
  if (fm.created_at !== undefined && fm.created_at !== null) {
    const stamp = parseCreatedAt(fm.created_at);
    if (!stamp.ok) problems.push(stamp.problem);
  }
  if (typeof fm.status === 'string' && fm.status.trim() !== '' && !(STATUSES as readonly string[]).includes(fm.status)) {
    problems.push({ code: 'STATUS_UNKNOWN', field: 'status', message: `status "${fm.status.slice(0, 40)}" is not one of ${STATUSES.join(', ')}` });
  }
  problems.push(...schemaProblems(fm, new Set(problems.map((p) => p.field))));
  problems.push(...checkContentGate(fm));
  return { fields: fm, problems };
}

function schemaProblems(fm: Frontmatter, alreadyNamed: Set<string | undefined>): Problem[] {
  if (validateSchema(fm)) return [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const err of validateSchema.errors ?? []) {
    if (err.keyword === 'required') continue; // named above as MISSING_REQUIRED_FIELD
    const field = err.instancePath.split('/')[1] ?? undefined;
    if (alreadyNamed.has(field) || seen.has(`${field}`)) continue;
    seen.add(`${field}`);
    problems.push({ code: 'SCHEMA', field, message: `${field ?? 'frontmatter'} ${describeSchemaError(err)}` });
  }
  return problems;
}

function describeSchemaError(err: { keyword: string; message?: string; params: Record<string, unknown> }): string {
  if (err.keyword === 'anyOf' || err.keyword === 'pattern') return 'does not have the expected shape (an id is a ULID or UUIDv7; repo_head a full hash)';
  return err.message ?? err.keyword;
}
