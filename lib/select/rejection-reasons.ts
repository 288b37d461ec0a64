import type { Frontmatter, Problem } from '../capsule/types';
import type { RejectionReason } from './types';

/** Problem codes grouped by the ledger reason they map to, in priority order (the first match names the rejection). */
const REASON_BY_CODE: ReadonlyArray<[RejectionReason, readonly string[]]> = [
  ['unparseable', ['NO_FRONTMATTER', 'FRONTMATTER_UNTERMINATED', 'YAML_SYNTAX', 'YAML_NOT_MAPPING', 'YAML_DUPLICATE_KEY', 'YAML_COMPLEX_KEY', 'YAML_ALIAS_LIMIT', 'BINARY_CONTENT', 'TOO_LARGE']],
  ['missing-required-field', ['MISSING_REQUIRED_FIELD', 'EMPTY_FIELD', 'WAITING_ON_NULL']],
  ['bad-created-at', ['CREATED_AT_INVALID', 'CREATED_AT_DATE_ONLY', 'CREATED_AT_NO_OFFSET']],
  ['content-gate', ['CONTENT_GATE_OBJECTIVE', 'CONTENT_GATE_NEXT_ACTION']],
  ['schema', ['SCHEMA', 'STATUS_UNKNOWN']],
];

/**
 * Turns validation problems into one ledger reason and its detail. The detail uses only our own
 * vocabulary (field names, codes, gate pattern names) so systemic defects group into one line;
 * the capsule-controlled value, when there is one, travels separately for inert() rendering.
 */
export function rejectionFromProblems(problems: readonly Problem[], fields: Frontmatter): { reason: RejectionReason; detail: string; value?: unknown } {
  for (const [reason, codes] of REASON_BY_CODE) {
    const hits = problems.filter((p) => codes.includes(p.code));
    if (hits.length === 0) continue;
    const details = [...new Set(hits.map((p) => describeProblem(reason, p)))];
    const first = hits[0]!;
    const value = reason === 'bad-created-at' || first.code === 'STATUS_UNKNOWN' ? fields[first.field ?? ''] : undefined;
    return value === undefined ? { reason, detail: details.join(', ') } : { reason, detail: details.join(', '), value };
  }
  const first = problems[0];
  return { reason: 'schema', detail: first ? safeToken(first.code) : 'unknown problem' };
}

function describeProblem(reason: RejectionReason, p: Problem): string {
  const field = p.field === undefined ? undefined : safeToken(p.field);
  switch (reason) {
    case 'unparseable':
      return p.code.toLowerCase().replace(/_/g, '-');
    case 'missing-required-field':
      if (p.code === 'WAITING_ON_NULL') return 'waiting_on: bare null';
      if (p.code === 'EMPTY_FIELD') return `${field}: empty`;
      return field ?? 'unknown field';
    case 'bad-created-at':
      return p.code === 'CREATED_AT_DATE_ONLY' ? 'date only' : p.code === 'CREATED_AT_NO_OFFSET' ? 'no offset' : 'not a stamp';
    case 'content-gate': {
      // The gate names its matched pattern in parentheses; pattern names are our vocabulary.
      const pattern = /\(([a-z0-9-]+)\)/.exec(p.message)?.[1];
      return pattern ? `${field}: ${pattern}` : (field ?? 'unknown field');
    }
    default:
      return p.code === 'STATUS_UNKNOWN' ? 'status' : (field ?? 'frontmatter');
  }
}

/** Field names from a validator may echo a capsule's own key; keep only a plain token. */
function safeToken(text: string): string {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(text) ? text : 'unnamed field';
}
