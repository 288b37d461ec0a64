import { AUTOSAVE_TAG, type Frontmatter } from './types';

/** Triggers written by a hook from the transcript delta rather than authored by a session. */
export const HOOK_TRIGGERS: readonly string[] = ['autosave', 'pre-compact'];

/**
 * True when a hook wrote the capsule from the transcript (an autosave or a pre-compact
 * checkpoint), read from the structured `trigger` scalar or `tags` array, never from prose.
 */
export function isHookWritten(fields: Frontmatter): boolean {
  if (typeof fields.trigger === 'string' && HOOK_TRIGGERS.includes(fields.trigger)) return true;
  return Array.isArray(fields.tags) && fields.tags.includes(AUTOSAVE_TAG);
}
