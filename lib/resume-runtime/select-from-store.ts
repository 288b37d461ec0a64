import { inert } from '../capsule/inert';
import { isCapsuleError } from '../errors/capsule-error';
import { CONSUMED_STATUSES, selectCapsule, unavailableSelection } from '../select/select-capsule';
import type { CapsuleStatus } from '../capsule/types';
import type { Candidate, Selection } from '../select/types';
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
 * abandoned ones listed with id, path and derived status, and active ones listed and read newest
 * first in growing rounds until one is selected; the active ones never read enter the ledger as
 * one count. With `capsuleId` only that capsule competes.
 * Store failures become `unavailable`, never exceptions.
 */
export async function selectFromStore(store: MemoryStore, opts: { now: Date; capsuleId?: string }): Promise<Selection> {
  try {
    if (!(await store.exists())) return unavailableSelection('no-memory-branch', `${store.ref} does not exist`);
    if (opts.capsuleId !== undefined) return await selectById(store, opts.capsuleId, opts.now);
    // Consumed capsules pile up without bound: count them (one small read), list paused and
    // abandoned ones, and list active ones newest first only as far as the rounds read them, so
    // a branch of 10,000 active capsules costs what one does plus the index shards walked.
    const [counts, others] = await Promise.all([store.countByStatus(), store.listIndex({ status: NOT_ACTIVE_LISTED })]);
    const counted = CONSUMED_STATUSES.map((status) => ({ status, count: counts[status as CapsuleStatus] ?? 0 }));
    const candidates: Candidate[] = others.map(toCandidate);
    let active: Candidate[] = [];
    let exhausted = false;
    let parsed = 0;
    let budgetSpent = false;
    let selection: Selection | null = null;
    for (let round = 0; selection === null || (selection.capsule === null && !exhausted && !budgetSpent); round += 1) {
      const limit = ACTIVE_READ_ROUNDS[round];
      const listed = await store.listIndex({ status: ['active'], ...(limit === undefined ? {} : { limit }) });
      exhausted = limit === undefined || listed.length < limit;
      const seen = new Set(active.map((c) => c.id));
      const batch = listed.filter((e) => !seen.has(e.id)).map(toCandidate);
      for (let at = 0; at < batch.length && !budgetSpent; at += READ_GROUP) {
        const group = batch.slice(at, at + READ_GROUP);
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
      // The counts blob says how many active capsules the unread rest holds; a listing that ran out is exact.
      const unread = exhausted ? 0 : Math.max(0, (counts.active ?? 0) - active.length);
      selection = selectCapsule([...candidates, ...active], { now: opts.now, counted: [...counted, { status: 'active', count: unread, unread: true }] });
    }
    return selection;
  } catch (err) {
    return unavailableFromError(err);
  }
}

function toCandidate(e: IndexEntry): Candidate {
  return { id: e.id, path: e.path, status: e.status, createdAt: e.createdAt };
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
