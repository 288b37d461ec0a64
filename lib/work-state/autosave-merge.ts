import { formatStamp } from '../capsule/created-at';
import { emptySections, mergeSectionBullets } from '../capsule/sections';
import type { CapsuleDocument, SectionKey } from '../capsule/types';
import { EVIDENCE_FIELDS, foldContract, UNKNOWN_OBJECTIVE, UNKNOWN_WAITING_ON, type ContractFields } from './contract-fields';
import { autosaveStamps } from './carry-forward';
import { mergeErrors, mergeFiles } from './section-merge';

export { NO_NEXT_STEP, UNKNOWN_OBJECTIVE, UNKNOWN_WAITING_ON } from './contract-fields';

/** The fields of a work event the autosave reads (structurally a `WorkEvent` of lib/transcript). */
export interface AutosaveEvent {
  kind: string;
  text: string;
  path?: string;
  intent?: string;
  previousDone?: boolean;
  switchTask?: boolean;
  followUp?: boolean;
  placeholder?: boolean;
  unread?: boolean;
  quote?: string;
  resolves?: string;
  source?: string;
  field?: string;
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
  /** The pairing data of the failures still open (encoded, lib/transcript/failure-pairing): written to `open_checks`, removed when none is open. */
  openChecks?: readonly string[];
}

/** How many bullets each section keeps; older ones fold into a counted line. */
export const AUTOSAVE_SECTION_MAX: Record<SectionKey, number> = {
  done: 40, errors: 30, rejected: 15, files: 200, facts: 40, gates: 10, claimed: 30,
};

const TASK = /^\[([a-z_ -]+)\]\s*(.*)$/i;
// Earlier autosaves kept the last user request as a fact; the contract fields carry it now.
const LEGACY_LAST_REQUEST = 'last user request: ';

/**
 * Folds work events into this session's one autosave document: pure, deterministic, bounded.
 * The contract fields follow the evidence (see foldContract): the current task as the
 * objective, the agent's own stated next step, the question or job the work waits on, and
 * explicit unknown markers otherwise. Done gets what was reported finished and what now
 * passes; errors are marked open or resolved by what; files are listed in time order.
 * `changed` is false when nothing but the timestamp would differ, so the caller commits only
 * real changes.
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
  const files: Array<{ kind: 'read' | 'modified'; path: string }> = [];
  const errors: Parameters<typeof mergeErrors>[1][number][] = [];
  const closedTasks = new Set<string>();
  const reopened = new Set<string>();
  for (const e of events) {
    const text = e.text.trim();
    if (text === '') continue;
    switch (e.kind) {
      case 'file-read': files.push({ kind: 'read', path: e.path ?? text }); break;
      case 'file-modified': files.push({ kind: 'modified', path: e.path ?? text }); break;
      case 'error': errors.push({ kind: 'error', text }); break;
      case 'resolution': errors.push(e.resolves !== undefined ? { kind: 'resolution', resolves: e.resolves, by: text } : { kind: 'error', text: `resolved: ${text}` }); break;
      case 'rejected': add.rejected.push(text); break;
      case 'decision': add.facts.push(`decision: ${text}`); break;
      case 'constraint': add.facts.push(`constraint ${text}`); break;
      case 'finding': add.facts.push(e.quote ?? text); break;
      case 'environment': add.facts.push(`environment: ${text}`); break;
      case 'git': add.done.push(`git: ${text}`); break;
      case 'done': add.done.push(text); break;
      case 'task': {
        const m = TASK.exec(text);
        const status = m?.[1]?.toLowerCase() ?? 'pending';
        const subject = m?.[2] ?? text;
        // One row per subject: a later status replaces the earlier one (ids never reach the capsule).
        reopened.add(subject);
        if (status === 'completed' || status === 'done' || status === 'stopped' || status === 'deleted') {
          closedTasks.add(subject);
          add.claimed = add.claimed.filter((item) => (TASK.exec(item)?.[2] ?? item) !== subject);
          if (status !== 'deleted') add.done.push(`task ${status}: ${subject}`);
        } else {
          closedTasks.delete(subject);
          add.claimed = add.claimed.filter((item) => (TASK.exec(item)?.[2] ?? item) !== subject);
          add.claimed.push(`[${status === 'created' ? 'pending' : status}] ${subject}`);
        }
        break;
      }
      default:
        break; // the contract events (user-request, next-step, question, waiting, …) are folded below
    }
  }
  // A row this fold touched is replaced (its new status is in add.claimed, or it closed).
  const kept = doc.sections.claimed.filter((item) => !reopened.has(TASK.exec(item)?.[2] ?? item));
  doc.sections.claimed = [...kept.filter((item) => !(TASK.test(item) && reopened.has(TASK.exec(item)![2]!))), ...add.claimed.filter((item) => !doc.sections.claimed.includes(item))];
  add.claimed = [];
  if (doc.sections.claimed.length > AUTOSAVE_SECTION_MAX.claimed) doc.sections.claimed = doc.sections.claimed.slice(-AUTOSAVE_SECTION_MAX.claimed);
  const contract = foldContract(contractOf(doc), events, openTask(doc.sections.claimed));
  Object.assign(doc.frontmatter, contract.fields);
  add.done.unshift(...contract.done);
  add.facts.unshift(...contract.facts);
  doc.sections.facts = doc.sections.facts.filter((item) => !item.startsWith(LEGACY_LAST_REQUEST));
  for (const key of Object.keys(add) as SectionKey[]) {
    if (add[key].length > 0) doc = mergeSectionBullets(doc, key, add[key], { max: AUTOSAVE_SECTION_MAX[key] });
  }
  if (files.length > 0) doc.sections.files = mergeFiles(doc.sections.files, files, AUTOSAVE_SECTION_MAX.files);
  if (errors.length > 0) doc.sections.errors = mergeErrors(doc.sections.errors, errors, AUTOSAVE_SECTION_MAX.errors);
  if (ctx.openChecks !== undefined) {
    if (ctx.openChecks.length > 0) doc.frontmatter.open_checks = [...ctx.openChecks];
    else delete doc.frontmatter.open_checks;
  }
  if (ctx.repoHead) doc.frontmatter.repo_head = ctx.repoHead;
  if (ctx.repoBranch) doc.frontmatter.repo_branch = ctx.repoBranch;
  if (ctx.parentCapsuleId && doc.frontmatter.parent_capsule_id === undefined) doc.frontmatter.parent_capsule_id = ctx.parentCapsuleId;
  const changed = previous === null || JSON.stringify(withoutStamp(doc)) !== JSON.stringify(withoutStamp(previous));
  if (changed) doc.frontmatter.updated_at = formatStamp(ctx.now, ctx.offsetMinutes ?? 0);
  return { doc, changed };
}

/**
 * The task the work is on, from the task list's rows (structure, not prose): the one in
 * progress, else the first pending one. A row that names only an id (`task 3`, from before
 * subjects were mapped) names no task.
 */
function openTask(claimed: readonly string[]): string | undefined {
  const rows = claimed.map((item) => TASK.exec(item)).filter((m): m is RegExpExecArray => m !== null && !/^task \S+$/.test(m[2]!));
  const inProgress = rows.filter((m) => m[1]!.toLowerCase() === 'in_progress');
  if (inProgress.length > 0) return `"${inProgress[inProgress.length - 1]![2]}" (in progress)`;
  const pending = rows.find((m) => m[1]!.toLowerCase() === 'pending' || m[1]!.toLowerCase() === 'created');
  return pending === undefined ? undefined : `"${pending[2]}" (pending, the next in the task list)`;
}

function contractOf(doc: CapsuleDocument): ContractFields {
  const s = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() !== '' ? v : fallback);
  return {
    objective: s(doc.frontmatter.objective, UNKNOWN_OBJECTIVE),
    waiting_on: s(doc.frontmatter.waiting_on, UNKNOWN_WAITING_ON),
    next_valid_action: s(doc.frontmatter.next_valid_action, ''),
    ...Object.fromEntries(EVIDENCE_FIELDS.filter((k) => typeof doc.frontmatter[k] === 'string').map((k) => [k, doc.frontmatter[k] as string])),
  };
}

function freshDocument(ctx: AutosaveContext): CapsuleDocument {
  return {
    frontmatter: { id: ctx.newId, objective: UNKNOWN_OBJECTIVE, waiting_on: UNKNOWN_WAITING_ON, next_valid_action: '', ...autosaveStamps(ctx) },
    sections: emptySections(),
    notes: '',
  };
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
