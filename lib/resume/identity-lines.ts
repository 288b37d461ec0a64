import { inert } from '../capsule/inert';
import type { SelectedCapsule } from '../select/types';

/** The lineage a resume looked for, as the runtime found it from the host's signal. */
export interface ResumeLineage {
  /** Earlier sessions, oldest first; the last one is the session this one continues. */
  sessions: readonly string[];
  /** How it ended: `clear`, `compact`, `process` (no hand-over, the same client process), `current` (a verb run inside it). */
  reason: string;
}

const ENDED: Record<string, string> = {
  clear: 'which ended with /clear',
  compact: 'which was compacted',
  process: 'which the same client process ran before (no hand-over was left)',
  current: 'the session this command runs in',
  taken: 'which ended just before this one',
};

const BASIS: Record<SelectedCapsule['basis'], string> = {
  lineage: "this session's own lineage (its newest active capsule)",
  worktree: 'no lineage capsule: the newest of this author on this machine in this worktree and branch',
  author: 'no lineage capsule: the newest of this author on this machine (another worktree or branch)',
  handoff: 'a handoff capsule addressed to this author',
  any: 'taken on purpose by id (no scope applied)',
};

/**
 * The identity lines of CAPSULE DATA: which lineage this session continues (from the host's
 * signal, never from capsule text), why this capsule was the one, and who wrote it where,
 * on this machine or synced. Every capsule value goes through inert().
 */
export function renderIdentityLines(capsule: SelectedCapsule, lineage: ResumeLineage | null | undefined): string[] {
  const f = capsule.fields;
  const lines: string[] = [];
  if (lineage && lineage.sessions.length > 0) {
    const last = lineage.sessions[lineage.sessions.length - 1]!;
    const more = lineage.sessions.length - 1;
    lines.push(`lineage: continues session ${inert(last, { max: 80 })} ${ENDED[lineage.reason] ?? 'which ended before this one'}${more > 0 ? `, and ${more} earlier session${more === 1 ? '' : 's'} of the same client process` : ''} (linked by the host's process signal)`);
  } else {
    lines.push('lineage: none given by the host for this resume (a new session, a command run by hand, or a lost hand-over)');
  }
  const pass = capsule.passThrough ? ' (already marked resumed by an earlier session of this lineage, which saved nothing since: handed on again)' : '';
  lines.push(`selected by: ${BASIS[capsule.basis]}${pass}`);
  if (typeof f.author !== 'string' && typeof f.machine !== 'string') {
    lines.push('written where: not recorded (an earlier git-capsule version wrote it)');
    return lines;
  }
  const where = capsule.origin === 'this-machine' ? 'on this machine' : capsule.origin === 'synced' ? `on another machine ${inert(f.machine, { max: 40 })}, arrived by sync` : 'machine not recorded';
  const tree = typeof f.worktree === 'string' ? `, worktree ${inert(f.worktree, { max: 40 })}` : '';
  const branch = typeof f.repo_branch === 'string' ? `, branch ${inert(f.repo_branch, { max: 80 })}` : '';
  lines.push(`written where: by ${inert(f.author ?? 'an unrecorded author', { max: 120 })} ${where}${tree}${branch}`);
  if (typeof f.handoff_to === 'string') lines.push(`handoff to: ${inert(f.handoff_to, { max: 120 })}`);
  return lines;
}
