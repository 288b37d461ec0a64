import { parseCapsule } from '../capsule/parse';
import { parseCreatedAt } from '../capsule/created-at';
import { validateFrontmatter } from '../capsule/validate';
import { orderForSelection } from './prefer-authored';
import { rejectionFromProblems } from './rejection-reasons';
import type { Candidate, CountedStatus, Rejection, SelectedCapsule, Selection, UnavailableReason } from './types';

/** Statuses a previous resume (or the author) already spent: ordinary history, not junk. */
export const CONSUMED_STATUSES: readonly string[] = ['resumed', 'resolved'];

const UNREAD_DETAIL = 'not read: older than the selected capsule';

/** The one selectable status. */
export const SELECTABLE_STATUS = 'active';

/**
 * Picks the newest valid active capsule by parsed `created_at` (UTC) and records every other
 * candidate in the ledger with its reason: nothing is discarded without a record, because a
 * silent discard is indistinguishable from a capsule that never existed.
 *
 * `counted` carries consumed capsules the store counted from its index instead of listing
 * (a branch of 10,000 spent capsules costs one small read); they enter the ledger as counts, and
 * so do active capsules counted `unread` (older than every one read, superseded by the winner).
 *
 * @example selectCapsule([{ id, path, status: 'active', text }], { now }).capsule?.id
 */
export function selectCapsule(candidates: readonly Candidate[], options: { now: Date; counted?: readonly CountedStatus[] }): Selection {
  const rejected: Rejection[] = [];
  let countedTotal = 0;
  let unreadCount = 0;
  for (const c of options.counted ?? []) {
    if (c.count <= 0) continue;
    countedTotal += c.count;
    if (c.unread === true) {
      unreadCount += c.count;
      continue;
    }
    const reason = CONSUMED_STATUSES.includes(c.status) ? 'already-consumed' : 'not-active';
    rejected.push({ id: '', path: '', status: c.status, reason, ...(reason === 'already-consumed' ? { detail: c.status } : describeStatus(c.status)), count: c.count });
  }
  const valid: SelectedCapsule[] = [];
  const unread: Candidate[] = [];
  for (const c of candidates) {
    const base = { id: c.id, path: c.path, status: c.status };
    // Check 1: a capsule an earlier resume already spent is history, kept apart from junk.
    if (c.status !== null && CONSUMED_STATUSES.includes(c.status)) {
      rejected.push({ ...base, reason: 'already-consumed', detail: c.status });
      continue;
    }
    // Check 2: everything that is not exactly `active` (paused, abandoned, a draft, a typo, absent) is named.
    if (c.status !== SELECTABLE_STATUS) {
      rejected.push({ ...base, reason: 'not-active', ...describeStatus(c.status) });
      continue;
    }
    if (c.text === undefined) {
      unread.push(c);
      continue;
    }
    const judged = judgeText(c, options.now);
    if ('reason' in judged) rejected.push(judged);
    else valid.push(judged);
  }
  const [winner, ...older] = orderForSelection(valid);
  for (const s of older) rejected.push({ id: s.id, path: s.path, status: s.status, reason: 'superseded', detail: 'valid, older than the selected capsule' });
  // Unread with a winner: older than it. Without one (the resume's parse budget ran out), only unread.
  for (const c of unread) rejected.push(winner ? { id: c.id, path: c.path, status: c.status, reason: 'superseded', detail: UNREAD_DETAIL } : { id: c.id, path: c.path, status: c.status, reason: 'unreadable', detail: 'not read' });
  if (winner) {
    if (unreadCount > 0) rejected.push({ id: '', path: '', status: SELECTABLE_STATUS, reason: 'superseded', detail: UNREAD_DETAIL, count: unreadCount });
    return { capsule: winner, rejected, unavailable: null };
  }
  // Without a winner they are not superseded by anything: named, never dropped (callers read them all first).
  if (unreadCount > 0) rejected.push({ id: '', path: '', status: SELECTABLE_STATUS, reason: 'unreadable', detail: 'not read', count: unreadCount });
  const reason: UnavailableReason = candidates.length + countedTotal === 0 ? 'no-capsules' : 'all-candidates-rejected';
  return { capsule: null, rejected, unavailable: { reason } };
}

/** A selection with no winner for a reason found before selection ran (no branch, unreadable store, bad root). */
export function unavailableSelection(reason: UnavailableReason, detail?: string): Selection {
  return { capsule: null, rejected: [], unavailable: detail === undefined ? { reason } : { reason, detail } };
}

function judgeText(c: Candidate, now: Date): SelectedCapsule | Rejection {
  const base = { id: c.id, path: c.path, status: c.status };
  if (c.text === null || c.text === undefined) return { ...base, reason: 'unreadable', detail: 'capsule blob missing' };
  const parsed = parseCapsule(c.text);
  if (parsed.doc === null) return { ...base, ...rejectionFromProblems(parsed.problems, {}) };
  const fields = parsed.doc.frontmatter;
  // The document's own status must agree: a foreign writer's `draft` is named, not a schema error.
  if (fields.status !== undefined && fields.status !== null && fields.status !== SELECTABLE_STATUS) {
    return { ...base, reason: 'not-active', ...describeStatus(stringOrNull(fields.status)) };
  }
  const validation = validateFrontmatter(fields);
  if (validation.problems.length > 0) return { ...base, ...rejectionFromProblems(validation.problems, fields) };
  if (fields.id !== c.id) return { ...base, reason: 'schema', detail: 'id differs from its path', value: fields.id };
  const stamp = parseCreatedAt(fields.created_at);
  if (!stamp.ok) return { ...base, reason: 'bad-created-at', detail: 'not a stamp', value: fields.created_at };
  return {
    id: c.id,
    path: c.path,
    status: SELECTABLE_STATUS,
    text: c.text,
    doc: parsed.doc,
    fields,
    createdAtMs: stamp.epochMs,
    ageMs: now.getTime() - stamp.epochMs,
  };
}

function describeStatus(status: string | null): { detail: string; value?: unknown } {
  if (status === null || status === '') return { detail: 'absent' };
  if (['paused', 'abandoned'].includes(status)) return { detail: status };
  return { detail: 'unrecognized', value: status };
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : value === undefined || value === null ? null : JSON.stringify(value);
}
