import type { Frontmatter } from './types';

/**
 * The provenance fields the store stamps on every write (docs/format.md "Identity"), in the
 * order they are written, last in the frontmatter: who committed it (`author`, the committer's
 * email), on which clone (`machine`, a random id made once per clone) and in which worktree of
 * it (`worktree`, an id derived from the machine id, never a path).
 */
export const IDENTITY_FIELDS = ['author', 'machine', 'worktree'] as const;
export type IdentityField = (typeof IDENTITY_FIELDS)[number];
export type IdentityStamp = Record<IdentityField, string>;

/** The person a `trigger: handoff` capsule is addressed to (an email): that author may resume it. */
export const HANDOFF_TO_FIELD = 'handoff_to';

const MAX = 200;

/**
 * An identity value as it is stamped: printable ASCII, one line, bounded, never empty, so it
 * is a plain JSON-quoted YAML scalar and compares the same on every machine.
 */
export function cleanIdentityValue(value: string): string {
  const clean = value.replace(/[^\x21-\x7e]+/g, '_').slice(0, MAX);
  return clean === '' ? 'unknown' : clean;
}

/** True when `fields` already carries exactly this stamp. */
export function hasStamp(fields: Frontmatter, stamp: IdentityStamp): boolean {
  return IDENTITY_FIELDS.every((k) => fields[k] === stamp[k]);
}
