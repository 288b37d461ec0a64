/** How a payload field is checked: its type, `?` when it may be absent, `null` when it may be null. */
export type FieldKind = 'string' | 'string?' | 'string|null?' | 'boolean?' | 'any';

/** A field that did not fit, named for the fail-open line. */
export interface FieldMismatch {
  field: string;
  expected: string;
  received: string;
}

/**
 * Checks a payload's fields by type only: a value of the wrong type is never coerced (a
 * non-string session id must not become "[object Object]"); fields not in the table are ignored.
 * Returns the first mismatch, or null when every field fits.
 */
export function checkPayloadFields(raw: unknown, fields: Readonly<Record<string, FieldKind>>): FieldMismatch | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { field: '(payload)', expected: 'a JSON object', received: describeValue(raw) };
  const record = raw as Record<string, unknown>;
  for (const [field, kind] of Object.entries(fields)) {
    if (!fits(record[field], kind)) return { field, expected: kind, received: describeValue(record[field]) };
  }
  return null;
}

function fits(value: unknown, kind: FieldKind): boolean {
  if (kind === 'any') return true;
  if (value === undefined) return kind.endsWith('?');
  if (value === null) return kind.includes('null');
  return typeof value === kind.replace(/\|null|\?/g, '');
}

/** `null`, `an array`, or the typeof of a value, for messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
