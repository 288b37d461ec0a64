/**
 * Type guards for the undocumented host inputs the budget reads (settings, env, transcript
 * fields): each input is checked here and, when it fails, falls back to the next source.
 */

/** A whole, positive, safely representable number of tokens, or null. */
export function positiveInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short JSON rendering of an ignored value, for the note that says it was ignored. */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
