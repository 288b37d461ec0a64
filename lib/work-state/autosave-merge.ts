import { checkContentGate } from '../capsule/content-gate';
import { formatStamp } from '../capsule/created-at';
import { emptySections, mergeSectionBullets } from '../capsule/sections';
import type { CapsuleDocument, SectionKey } from '../capsule/types';

/** The fields of a work event the autosave reads (structurally a `WorkEvent` of work-events.ts). */
export interface AutosaveEvent {
  kind: string;
  text: string;
  path?: string;
}

/** Who is writing, when, and where the project's HEAD was. */
export interface AutosaveContext {
  now: Date;
  /** Local offset in minutes east of UTC, for `created_at` / `updated_at`. */
  offsetMinutes?: number;
  sessionId: string;
  /** The id a new autosave gets (ignored when `previous` exists). */
  newId: string;
  repoHead?: string;
  repoBranch?: string;
  /** Links the session that continues after compaction to the checkpoint before it. */
  parentCapsuleId?: string;
}

/** Explicit unknown markers: an autosave never writes null or an empty string for what it cannot know. */
export const UNKNOWN_OBJECTIVE = 'unknown (autosave could not determine the objective)';
export const UNKNOWN_WAITING_ON = 'unknown (autosave could not determine what this waits on)';

/** How many bullets each section keeps; older ones fold into a counted line. */
export const AUTOSAVE_SECTION_MAX: Record<SectionKey, number> = {
  done: 30, errors: 20, rejected: 15, files: 40, facts: 20, gates: 10, claimed: 15,
};

const LAST_REQUEST = 'last user request: ';
const TASK = /^\[([a-z_ -]+)\]\s*(.*)$/i;

/**
 * Folds work events into this session's one autosave document: pure, deterministic, bounded.
 * The contract fields use unknown markers unless evidence exists (objective from the first
 * captured user request; next_valid_action from the last open task or the last user request,
 * or a plain statement that none was captured). `changed` is false when nothing but the
 * timestamp would differ, so the caller commits only real changes.
 *
 * @example const { doc, changed } = mergeAutosave(previousDoc, events, { now, sessionId, newId });
 */
export function mergeAutosave(
  previous: CapsuleDocument | null,
  events: readonly AutosaveEvent[],
  ctx: AutosaveContext,
): { doc: CapsuleDocument; changed: boolean } {
  const base = previous ?? freshDocument(ctx);
  let doc: CapsuleDocument = { ...base, frontmatter: { ...base.frontmatter }, sections: { ...emptySections(), ...base.sections } };
  const add: Record<SectionKey, string[]> = emptySections();
  let lastRequest: string | undefined;
  const closedTasks = new Set<string>();
  for (const e of events) {
    const text = e.text.trim();
    if (text === '') continue;
    switch (e.kind) {
      case 'file-read': add.files.push(`read: ${e.path ?? text}`); break;
      case 'file-modified': add.files.push(`modified: ${e.path ?? text}`); break;
      case 'error': add.errors.push(text); break;
      case 'resolution': add.errors.push(`resolved: ${text}`); break;
      case 'rejected': add.rejected.push(text); break;
      case 'decision': add.facts.push(`decision: ${text}`); break;
      case 'environment': add.facts.push(`environment: ${text}`); break;
      case 'git': add.done.push(`git: ${text}`); break;
      case 'user-request':
        // A supervisor's message (its continuation, its capsule request) is harness text: neither
        // the objective nor the next action, which the content gate would refuse anyway.
        if (checkContentGate({ objective: text }).length > 0) break;
        lastRequest = text;
        if (isUnknown(doc.frontmatter.objective)) doc.frontmatter.objective = text;
        break;
      case 'task': {
        const m = TASK.exec(text);
        const status = m?.[1]?.toLowerCase() ?? 'pending';
        const subject = m?.[2] ?? text;
        if (status === 'completed' || status === 'done' || status === 'stopped') {
          closedTasks.add(subject);
          add.done.push(`task ${status}: ${subject}`);
        } else add.claimed.push(text);
        break;
      }
      default: add.facts.push(`${e.kind}: ${text}`);
    }
  }
  doc.sections.claimed = doc.sections.claimed.filter((item) => !closedTasks.has(TASK.exec(item)?.[2] ?? item));
  add.claimed = add.claimed.filter((item) => !closedTasks.has(TASK.exec(item)?.[2] ?? item));
  if (lastRequest !== undefined) {
    doc.sections.facts = doc.sections.facts.filter((item) => !item.startsWith(LAST_REQUEST));
    add.facts.push(`${LAST_REQUEST}${lastRequest}`);
  }
  for (const key of Object.keys(add) as SectionKey[]) {
    if (add[key].length > 0) doc = mergeSectionBullets(doc, key, add[key], { max: AUTOSAVE_SECTION_MAX[key] });
  }
  doc.frontmatter.next_valid_action = nextAction(doc);
  if (ctx.repoHead) doc.frontmatter.repo_head = ctx.repoHead;
  if (ctx.repoBranch) doc.frontmatter.repo_branch = ctx.repoBranch;
  if (ctx.parentCapsuleId && doc.frontmatter.parent_capsule_id === undefined) doc.frontmatter.parent_capsule_id = ctx.parentCapsuleId;
  const changed = previous === null || JSON.stringify(withoutStamp(doc)) !== JSON.stringify(withoutStamp(previous));
  if (changed) doc.frontmatter.updated_at = formatStamp(ctx.now, ctx.offsetMinutes ?? 0);
  return { doc, changed };
}

function freshDocument(ctx: AutosaveContext): CapsuleDocument {
  const stamp = formatStamp(ctx.now, ctx.offsetMinutes ?? 0);
  return {
    frontmatter: {
      id: ctx.newId,
      objective: UNKNOWN_OBJECTIVE,
      waiting_on: UNKNOWN_WAITING_ON,
      next_valid_action: '',
      status: 'active',
      trigger: 'autosave',
      created_at: stamp,
      updated_at: stamp,
      session_id: ctx.sessionId,
      tags: ['autosave'],
    },
    sections: emptySections(),
    notes: '',
  };
}

/** The evidence-backed next action, or a plain statement that none was captured. */
function nextAction(doc: CapsuleDocument): string {
  const open = doc.sections.claimed.filter((item) => TASK.test(item));
  const lastTask = open[open.length - 1];
  if (lastTask !== undefined) return `Continue the last open task captured by autosave: "${lastTask}"`;
  const request = doc.sections.facts.find((item) => item.startsWith(LAST_REQUEST));
  if (request !== undefined) return `No next action was captured; ${LAST_REQUEST}"${request.slice(LAST_REQUEST.length)}"`;
  return 'No next action was captured (autosave saw no user request and no open task)';
}

function isUnknown(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '' || value.startsWith('unknown (');
}

function withoutStamp(doc: CapsuleDocument): CapsuleDocument {
  const { updated_at: _ignored, ...frontmatter } = doc.frontmatter;
  return { ...doc, frontmatter };
}

/**
 * A pre-compact checkpoint: the session's state so far as a new capsule of its own
 * (`trigger: pre-compact`, fresh id and `created_at`, no `updated_at`), so the summary can
 * name it and the session that continues after compaction can link to it.
 */
export function checkpointFrom(doc: CapsuleDocument, ctx: { id: string; now: Date; offsetMinutes?: number }): CapsuleDocument {
  const { updated_at: _updated, ...rest } = doc.frontmatter;
  return {
    ...doc,
    frontmatter: { ...rest, id: ctx.id, trigger: 'pre-compact', status: 'active', created_at: formatStamp(ctx.now, ctx.offsetMinutes ?? 0), tags: ['pre-compact'] },
  };
}
