import { formatStamp } from '../capsule/created-at';
import { IDENTITY_FIELDS, HANDOFF_TO_FIELD } from '../capsule/identity-fields';
import { emptySections } from '../capsule/sections';
import type { CapsuleDocument } from '../capsule/types';

/** Fields of the resumed capsule that describe that capsule, not the work: the new autosave gets its own. */
const NOT_CARRIED = new Set<string>(['updated_at', 'resolved_at', 'expires', 'repo_head', HANDOFF_TO_FIELD, ...IDENTITY_FIELDS]);

/**
 * The base of the first autosave of a session that goes on from a resumed capsule (after a
 * /clear, a compaction, or `git capsule resume`): the resumed state (objective, waiting_on,
 * next_valid_action, every body section, the other fields) as a new capsule of this session
 * (`trigger: autosave`, fresh id and `created_at`, `parent_capsule_id` naming the resumed one),
 * so the fold adds this session's events on top and any number of /clears in a row keeps the
 * work. The writer's identity and the capsule's own stamps are left for the store to stamp anew.
 *
 * @example mergeAutosave(carryForward(resumed, { newId, now, sessionId, parentCapsuleId }), events, ctx)
 */
export function carryForward(resumed: CapsuleDocument, ctx: { newId: string; now: Date; offsetMinutes?: number; sessionId: string; parentCapsuleId: string }): CapsuleDocument {
  const kept = Object.fromEntries(Object.entries(resumed.frontmatter).filter(([k]) => !NOT_CARRIED.has(k)));
  return {
    frontmatter: { ...kept, id: ctx.newId, parent_capsule_id: ctx.parentCapsuleId, ...autosaveStamps(ctx) },
    sections: { ...emptySections(), ...Object.fromEntries(Object.entries(resumed.sections).map(([k, v]) => [k, [...v]])) },
    notes: resumed.notes,
  };
}

/** What every new autosave of a session carries, whatever it starts from: active, its trigger and tag, its session, created and updated now. */
export function autosaveStamps(ctx: { now: Date; offsetMinutes?: number; sessionId: string }): Record<string, unknown> {
  const stamp = formatStamp(ctx.now, ctx.offsetMinutes ?? 0);
  return { status: 'active', trigger: 'autosave', created_at: stamp, updated_at: stamp, session_id: ctx.sessionId, tags: ['autosave'] };
}
