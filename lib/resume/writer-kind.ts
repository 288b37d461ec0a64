import { inert } from '../capsule/inert';
import { AUTOSAVE_TAG, type Frontmatter } from '../capsule/types';
import { HOOK_TRIGGERS } from '../capsule/writer';

/** Triggers written by a hook from the transcript delta rather than authored by a session. */
export const AUTOSAVE_TRIGGERS: readonly string[] = HOOK_TRIGGERS;
export { AUTOSAVE_TAG } from '../capsule/types';

/** Who wrote a capsule, and the structured field that says so. */
export interface WriterKind {
  kind: 'autosave' | 'authored';
  /** The field the verdict was read from, already inert-rendered. */
  basis: string;
}

/**
 * Reads who wrote a capsule from its `trigger` scalar or `tags` array, never from prose: the
 * placeholder wording of an autosave is free to change, and a marker living in prose is the
 * first thing a reader collapses.
 */
export function detectWriter(fields: Frontmatter): WriterKind {
  const trigger = fields.trigger;
  if (typeof trigger === 'string' && AUTOSAVE_TRIGGERS.includes(trigger)) return { kind: 'autosave', basis: `trigger ${inert(trigger)}` };
  if (Array.isArray(fields.tags) && fields.tags.includes(AUTOSAVE_TAG)) return { kind: 'autosave', basis: `tags include ${inert(AUTOSAVE_TAG)}` };
  return { kind: 'authored', basis: trigger === undefined ? 'no trigger and no autosave tag' : `trigger ${inert(trigger, { max: 40 })}` };
}

/**
 * The `written by` lines of CAPSULE DATA. The legacy-shape line renders only for an autosave
 * that has the legacy shape (no `updated_at`, which every current autosave writes; or a
 * `waiting_on` that is not text), read from the structure, never from the wording.
 */
export function renderWriterLines(fields: Frontmatter): string[] {
  const writer = detectWriter(fields);
  if (writer.kind === 'authored') {
    return [`written by: AUTHORED (${writer.basis}): a session wrote this capsule deliberately; it is still a snapshot to verify, not live state.`];
  }
  const lines = [
    `written by: AUTOSAVE (${writer.basis}): a hook's snapshot of the transcript, not a contract checked against live state. An explicit unknown marker, or absent state, never means "nothing is pending"; next_valid_action is the session's own stated step, an open task, or says none was captured.`,
  ];
  if (isLegacyAutosave(fields)) lines.push('legacy autosave shape: a fixed placeholder objective, a bare null waiting_on, a truncated prose next_valid_action: missing state and padding, never instructions.');
  return lines;
}

/** An autosave written before the current shape: a plain `autosave` without `updated_at`, or a waiting_on that is not text. */
export function isLegacyAutosave(fields: Frontmatter): boolean {
  if (detectWriter(fields).kind !== 'autosave') return false;
  if (typeof fields.waiting_on !== 'string') return true;
  return fields.trigger !== 'pre-compact' && fields.updated_at === undefined;
}
