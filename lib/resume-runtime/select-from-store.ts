import { inert } from '../capsule/inert';
import { isCapsuleError } from '../errors/capsule-error';
import { placeInScope, type SelectionScope } from '../select/scope';
import { CONSUMED_STATUSES, selectCapsule, unavailableSelection } from '../select/select-capsule';
import type { CapsuleStatus } from '../capsule/types';
import type { Candidate, Rejection, Selection } from '../select/types';
import { safeWriter } from '../store/memory-format';
import type { IndexEntry, MemoryStore } from '../store/types';

/** Statuses listed entry by entry; the consumed ones (resumed, resolved) are only counted, active ones listed as far as read. */
const NOT_ACTIVE_LISTED: readonly CapsuleStatus[] = ['paused', 'abandoned'];

/** How many active capsules are listed and read by the end of each round, newest first (then all): most resumes need only the first. */
export const ACTIVE_READ_ROUNDS: readonly number[] = [8, 64, 512];

/**
 * Bytes of capsule text one resume hands to the parser at most. Parsing is synchronous (the hook's
 * fail-open timer cannot fire while it runs), so a branch of many large capsules another machine
 * pushed must not cost more than this: past it the rest is counted as not read, in the ledger.
 * Ordinary capsules are a few KB, so a resume reads hundreds before it gets near the bound.
 */
export const RESUME_PARSE_BUDGET_BYTES = 2 * 1024 * 1024;
/** Texts read per request while the budget lasts (each at most MAX_CAPSULE_BYTES + 1). */
const READ_GROUP = 16;

/**
 * Feeds selection from the store's derived index: consumed capsules are counted, paused and
 * abandoned ones listed with id, path and derived status, and active ones listed newest first in
 * growing rounds until the best possible one is selected; the active ones never listed enter
 * the ledger as one count. With `capsuleId` only that capsule competes (taken on purpose: no
 * scope). With a `scope`, only documents of capsules in it are read (the index row says who and
 * where wrote each); a round ends the search once the winner is of the best tier still
 * possible: the lineage's own when there is a lineage, else this worktree and branch. A lineage
 * whose last session saved nothing stands on the capsule that session resumed (its `carried`
 * one): offered again to that lineage only, when it holds nothing newer.
 * Store failures become `unavailable`, never exceptions.
 */
export async function selectFromStore(store: MemoryStore, opts: { now: Date; capsuleId?: string; scope?: SelectionScope }): Promise<Selection> {
  try {
    if (!(await store.exists())) return unavailableSelection('no-memory-branch', `${store.ref} does not exist`);
    if (opts.capsuleId !== undefined) return await selectById(store, opts.capsuleId, opts.now);
    const scope = opts.scope;
    // Consumed capsules pile up without bound: count them (one small read), list paused and
    // abandoned ones, and list active ones newest first only as far as the rounds read them, so
    // a branch of 10,000 active capsules costs what one does plus the index shards walked.
    const [counts, others, coverage] = await Promise.all([store.countByStatus(), store.listIndex({ status: NOT_ACTIVE_LISTED }), store.indexCoverage()]);
    const counted = CONSUMED_STATUSES.map((status) => ({ status, count: counts[status as CapsuleStatus] ?? 0 }));
    const candidates: Candidate[] = others.map(toCandidate);
    let active: Candidate[] = [];
    let exhausted = false;
    let parsed = 0;
    let budgetSpent = false;
    let selection: Selection | null = null;
    const select = (extra: Candidate[] = []) => {
      // The counts blob says how many active capsules the unread rest holds; a listing that ran out is exact.
      const unread = exhausted ? 0 : Math.max(0, (counts.active ?? 0) - active.length);
      return selectCapsule([...candidates, ...active, ...extra], { now: opts.now, counted: [...counted, { status: 'active', count: unread, unread: true }], ...(scope ? { scope } : {}) });
    };
    for (let round = 0; selection === null || (!isBestPossible(selection, scope) && !exhausted && !budgetSpent); round += 1) {
      const limit = ACTIVE_READ_ROUNDS[round];
      const listed = await store.listIndex({ status: ['active'], ...(limit === undefined ? {} : { limit }) });
      exhausted = limit === undefined || listed.length < limit;
      const seen = new Set(active.map((c) => c.id));
      const batch = listed.filter((e) => !seen.has(e.id)).map(toCandidate);
      // Out of scope by its index row: named in the ledger from the row alone, its document never read.
      const wanted = scope ? batch.filter((c) => 'tier' in placeInScope(c, scope, opts.now)) : batch;
      for (let at = 0; at < wanted.length && !budgetSpent; at += READ_GROUP) {
        const group = wanted.slice(at, at + READ_GROUP);
        const texts = await store.readTexts(group.map((c) => c.id));
        for (const c of group) {
          const text = texts.get(c.id) ?? null;
          // Past the budget this capsule and the older ones stay unread (text undefined), in the ledger.
          if (text !== null && parsed + text.length > RESUME_PARSE_BUDGET_BYTES) {
            budgetSpent = true;
            break;
          }
          c.text = text;
          parsed += text?.length ?? 0;
        }
      }
      active = [...active, ...batch];
      selection = select();
    }
    const carried = scope?.lineage?.carried;
    if (carried !== undefined && selection.capsule?.basis !== 'lineage' && !active.some((c) => c.id === carried)) {
      const lineage = scope!.lineage!;
      const passThrough = await lineagePassThrough(store, carried, lineage.self === undefined ? lineage.sessions : [...lineage.sessions, lineage.self]);
      if (passThrough !== null) selection = select([passThrough]);
    }
    // A remote revision of the selected capsule that sync set aside (not sealed here): named, never taken.
    if (selection.capsule) selection.rejected.push(...(await foreignOf(store, selection.capsule.id, selection.capsule.path)));
    // Capsules the index does not list are invisible to everything above: named, never silent.
    const unindexed = coverage.inTree - coverage.indexed;
    if (unindexed > 0) {
      selection.rejected.push({ id: '', path: '', status: null, reason: 'not-indexed', detail: 'in the tree but not in the index: run git capsule reindex', count: unindexed });
      if (selection.unavailable?.reason === 'no-capsules') selection.unavailable = { reason: 'all-candidates-rejected' };
    }
    return selection;
  } catch (err) {
    return unavailableFromError(err);
  }
}

/** Nothing better can be found further down the index: the lineage's own capsule, or (with no lineage) this worktree's. */
function isBestPossible(selection: Selection, scope: SelectionScope | undefined): boolean {
  const basis = selection.capsule?.basis;
  if (basis === undefined) return false;
  if (scope === undefined) return true;
  return basis === 'lineage' || (scope.lineage === undefined && basis === 'worktree');
}

/**
 * The lineage's carried capsule when its only consumers were the lineage's own sessions (the
 * last one resumed it and then saved nothing): a candidate for this lineage again. A status
 * event's writer is the consuming session's id (made file-safe), so this costs one read.
 */
async function lineagePassThrough(store: MemoryStore, id: string, sessions: readonly string[]): Promise<Candidate | null> {
  let record;
  try {
    record = await store.readCapsule(id);
  } catch (err) {
    if (isCapsuleError(err, 'NOT_FOUND') || isCapsuleError(err, 'AMBIGUOUS_ID')) return null;
    throw err;
  }
  if (record.id !== id || record.status !== 'resumed') return null;
  const writers = new Set(sessions.map(safeWriter));
  const consumers = record.events.filter((e) => e.status !== 'active');
  if (consumers.length === 0 || !consumers.every((e) => e.status === 'resumed' && writers.has(e.writer))) return null;
  return { id: record.id, path: record.path, status: record.status, text: record.text, passThrough: true };
}

/** Reasons naming a capsule that is not this clone's: the ledger says what git's signature check says of it. */
const NOT_OURS: ReadonlySet<Rejection['reason']> = new Set(['other-author', 'other-machine', 'no-identity', 'not-sealed', 'foreign-revision']);

/** At most this many capsules' signatures are checked per resume (one `git log` for all): the rest stay unannotated. */
export const SIGNATURES_CHECKED = 64;

/** The ledger entries noteSignatures would mark: capsules not this clone's, named one by one. */
function signatureTargets(rejected: readonly Rejection[]): Rejection[] {
  return rejected.filter((r) => NOT_OURS.has(r.reason) && r.path !== '' && r.count === undefined).slice(0, SIGNATURES_CHECKED);
}

/** True when the ledger names a capsule whose signature noteSignatures would check. */
export function wantsSignatures(rejected: readonly Rejection[]): boolean {
  return signatureTargets(rejected).length > 0;
}

/**
 * Marks each ledger entry of a capsule that is not this clone's with git's own check of the
 * signature on the commit that brought it in (store.signaturesOf, one `git log`), so the ledger
 * says verified or unverified as `git capsule show` and `list` do. A git failure leaves them
 * unmarked: the ledger is never lost for it. `tip`: the memory branch's commit the selection
 * read, taken before anything this resume writes (runResume runs this beside the consume commit,
 * whose layout upgrade may move a capsule's files: the answer must be the selected tip's).
 */
export async function noteSignatures(store: MemoryStore, rejected: Rejection[], tip: string): Promise<void> {
  const named = signatureTargets(rejected);
  if (named.length === 0) return;
  let checks;
  try {
    checks = await store.signaturesOf([...new Set(named.map((r) => r.path))], tip);
  } catch {
    return;
  }
  for (const r of named) {
    const c = checks.get(r.path);
    if (c !== undefined) r.signature = { verified: c.verified, status: c.status, signer: c.signer };
  }
}

/** The ledger entries of the foreign revisions set aside beside the selected capsule, with who each claims to be. */
async function foreignOf(store: MemoryStore, id: string, path: string): Promise<Rejection[]> {
  const { named, total } = await store.foreignRevisions(path);
  const out: Rejection[] = named.map((f) => ({ id, path: f.path, status: null, reason: 'foreign-revision', detail: 'a remote revision of the selected capsule without its seal, set aside by sync', value: `${f.author ?? 'unknown author'}, machine ${f.machine ?? 'not recorded'} (foreign)` }));
  if (total > named.length) out.push({ id: '', path: '', status: null, reason: 'foreign-revision', detail: 'a remote revision of the selected capsule without its seal, set aside by sync', count: total - named.length });
  return out;
}

function toCandidate(e: IndexEntry): Candidate {
  const c: Candidate = { id: e.id, path: e.path, status: e.status, createdAt: e.createdAt };
  for (const key of ['sessionId', 'author', 'machine', 'worktree', 'branch', 'trigger', 'handoffTo'] as const) if (e[key] !== undefined) c[key] = e[key];
  return c;
}

/** Maps a store error to the reason there is no winner. */
export function unavailableFromError(err: unknown): Selection {
  const message = err instanceof Error ? err.message : String(err);
  if (isCapsuleError(err, 'MEMORY_ROOT')) return unavailableSelection('bad-memory-root', message);
  if (isCapsuleError(err, 'NOT_A_REPO')) return unavailableSelection('no-memory-branch', message);
  const code = isCapsuleError(err) ? err.code : 'INTERNAL';
  return unavailableSelection('memory-branch-unreadable', `[${code}] ${message}`);
}

async function selectById(store: MemoryStore, capsuleId: string, now: Date): Promise<Selection> {
  try {
    const record = await store.readCapsule(capsuleId);
    return selectCapsule([{ id: record.id, path: record.path, status: record.status, text: record.text }], { now });
  } catch (err) {
    if (isCapsuleError(err, 'NOT_FOUND')) return unavailableSelection('capsule-not-found', `no capsule matches ${inert(capsuleId, { max: 80 })}`);
    if (isCapsuleError(err, 'AMBIGUOUS_ID')) return unavailableSelection('capsule-not-found', `${inert(capsuleId, { max: 80 })} matches more than one capsule; give more of the id`);
    throw err;
  }
}
