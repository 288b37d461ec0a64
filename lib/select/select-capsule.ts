import { parseCapsule } from '../capsule/parse';
import { parseCreatedAt } from '../capsule/created-at';
import { validateFrontmatter } from '../capsule/validate';
import { orderForSelection } from './prefer-authored';
import { rejectionFromProblems } from './rejection-reasons';
import { originOf, placeInScope, TIER_ORDER, type Placement, type ScopedRow, type SelectionScope } from './scope';
import type { Candidate, CountedStatus, Rejection, SelectedCapsule, Selection, SelectionBasis, UnavailableReason } from './types';

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
 * With a `scope` only capsules in it compete, best tier first (the lineage's own, then this
 * worktree and branch, then this author on this machine, then a handoff to this author), newest
 * first within a tier; the rest are named with who and where they came from and are never the
 * winner (placeInScope). A lineage's authored capsule wins over an autosave of the same session.
 *
 * @example selectCapsule([{ id, path, status: 'active', text }], { now }).capsule?.id
 */
export function selectCapsule(candidates: readonly Candidate[], options: { now: Date; counted?: readonly CountedStatus[]; scope?: SelectionScope }): Selection {
  const scope = options.scope;
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
    // Check 1: a capsule an earlier resume already spent is history, kept apart from junk
    // (except the lineage's own pass-through, which only that lineage is offered).
    if (c.status !== null && CONSUMED_STATUSES.includes(c.status) && c.passThrough !== true) {
      rejected.push({ ...base, reason: 'already-consumed', detail: c.status });
      continue;
    }
    // Check 2: everything that is not exactly `active` (paused, abandoned, a draft, a typo, absent) is named.
    if (c.status !== SELECTABLE_STATUS && c.passThrough !== true) {
      rejected.push({ ...base, reason: 'not-active', ...describeStatus(c.status) });
      continue;
    }
    // Check 3: outside the scope (another author, machine or live session; a future stamp): named, never read.
    const placed = scope ? placeInScope(c, scope, options.now) : null;
    if (placed !== null && 'reason' in placed) {
      rejected.push({ ...base, ...outOfScope(placed) });
      continue;
    }
    if (c.text === undefined) {
      unread.push(c);
      continue;
    }
    const judged = judgeText(c, options.now);
    if ('reason' in judged) {
      rejected.push(judged);
      continue;
    }
    // The document's own fields decide once it is read: the index row is derived data.
    const sealed = scope ? scope.sealedHere(judged.text) : false;
    const own = scope ? placeInScope({ ...scopedFields(judged), sealed }, scope, options.now) : null;
    if (own !== null && 'reason' in own) rejected.push({ ...base, ...outOfScope(own) });
    else valid.push({ ...judged, basis: own === null ? 'any' : own.tier, origin: originOf(judged.fields.machine, scope?.here ?? {}, sealed), ...(c.passThrough ? { passThrough: true as const } : {}) });
  }
  valid.sort((a, b) => compareCandidates(a, b, scope));
  // Within the best tier (the lineage's own order already puts a session's authored capsule first),
  // a capsule a session authored goes before that session's autosaves (prefer-authored.ts).
  const tier = valid[0]?.basis;
  const ordered = tier === undefined || tier === 'lineage' ? valid : [...orderForSelection(valid.filter((c) => c.basis === tier)), ...valid.filter((c) => c.basis !== tier)];
  const [winner, ...older] = ordered;
  for (const s of older) rejected.push({ id: s.id, path: s.path, status: s.status, reason: 'superseded', detail: supersededDetail(s, winner!) });
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

/** Best tier first; in the lineage a newer session first and authored before autosave; then newest, then id. */
function compareCandidates(a: SelectedCapsule, b: SelectedCapsule, scope: SelectionScope | undefined): number {
  const tier = TIER_ORDER.indexOf(a.basis as never) - TIER_ORDER.indexOf(b.basis as never);
  if (tier !== 0) return tier;
  if (a.basis === 'lineage' && scope?.lineage) {
    const sessions = scope.lineage.sessions;
    const rank = (c: SelectedCapsule) => (c.passThrough ? -2 : sessions.indexOf(typeof c.fields.session_id === 'string' ? c.fields.session_id : ''));
    const bySession = rank(b) - rank(a);
    if (bySession !== 0) return bySession;
    const authored = Number(isAutosave(a)) - Number(isAutosave(b));
    if (authored !== 0) return authored;
  }
  return b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function isAutosave(c: SelectedCapsule): boolean {
  const t = c.fields.trigger;
  return t === 'autosave' || t === 'pre-compact' || (Array.isArray(c.fields.tags) && c.fields.tags.includes('autosave'));
}

function supersededDetail(loser: SelectedCapsule, winner: SelectedCapsule): string {
  if (loser.basis === winner.basis) return 'valid, older than the selected capsule';
  return loser.basis === 'lineage' ? 'valid, an earlier capsule of this lineage' : `valid, ${TIER_WORDS[loser.basis]}; the selected one is ${TIER_WORDS[winner.basis]}`;
}

const TIER_WORDS: Record<SelectionBasis, string> = {
  lineage: "this session's lineage",
  worktree: 'this worktree and branch',
  author: 'this author on this machine, another worktree or branch',
  handoff: 'a handoff addressed to this author',
  any: 'any capsule',
};

function outOfScope(p: Exclude<Placement, { tier: unknown }>): Pick<Rejection, 'reason' | 'detail' | 'value'> {
  return p.value === undefined ? { reason: p.reason, detail: p.detail } : { reason: p.reason, detail: p.detail, value: p.value };
}

/** The scope fields of a read document (strings only: anything else counts as not recorded). */
function scopedFields(s: Omit<SelectedCapsule, 'basis' | 'origin'>): ScopedRow {
  const f = s.fields;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    id: s.id,
    createdAt: str(f.created_at),
    sessionId: str(f.session_id),
    author: str(f.author),
    machine: str(f.machine),
    worktree: str(f.worktree),
    branch: str(f.repo_branch),
    trigger: str(f.trigger),
    handoffTo: str(f.handoff_to),
  };
}

function judgeText(c: Candidate, now: Date): Omit<SelectedCapsule, 'basis' | 'origin'> | Rejection {
  const base = { id: c.id, path: c.path, status: c.status };
  if (c.text === null || c.text === undefined) return { ...base, reason: 'unreadable', detail: 'capsule blob missing' };
  const parsed = parseCapsule(c.text);
  if (parsed.doc === null) return { ...base, ...rejectionFromProblems(parsed.problems, {}) };
  const fields = parsed.doc.frontmatter;
  // The document's own status must agree: a foreign writer's `draft` is named, not a schema error.
  if (fields.status !== undefined && fields.status !== null && fields.status !== SELECTABLE_STATUS && c.passThrough !== true) {
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
