import { eventBodyParts, type BodySource } from './history-text';
import type { HistoryDigest } from './history-types';

// Text is looked at in slices of this many characters: a long tool output is never copied whole.
const SLICE = 16 * 1024;

/**
 * The digest of an event's body (history-types HistoryDigest), equal to what eventBody gives
 * (`body.trim() === ''`, `body.toLowerCase().includes(needle)`) but computed over the body's
 * parts in slices, so a many-megabyte result costs no copies.
 */
export function digestBody(event: BodySource, needle?: string): HistoryDigest {
  const parts = eventBodyParts(event);
  return { empty: !parts.some((p) => /\S/.test(p)), hit: needle === undefined ? undefined : includesFolded(parts, needle) };
}

// Case-insensitive search over the parts' concatenation in overlapping slices. A context-dependent
// lowercase mapping (Greek final sigma) at a slice edge may fold differently than in the whole.
function includesFolded(parts: string[], needle: string): boolean {
  const overlap = Math.max(0, needle.length - 1);
  let carry = '';
  for (const part of parts) {
    for (let at = 0; at < part.length; at += SLICE) {
      const window = carry + part.slice(at, at + SLICE);
      if (window.toLowerCase().includes(needle)) return true;
      carry = overlap === 0 ? '' : window.slice(-overlap);
    }
  }
  return needle === '' || carry.toLowerCase().includes(needle);
}
