import { inert } from '../capsule/inert';
import { isCapsuleError } from '../errors/capsule-error';
import { CONSUMED_STATUSES, selectCapsule, unavailableSelection } from '../select/select-capsule';
import type { CapsuleStatus } from '../capsule/types';
import type { Candidate, Selection } from '../select/types';
import type { MemoryStore } from '../store/types';

/** Statuses listed entry by entry; the consumed ones (resumed, resolved) are only counted. */
const LISTED_STATUSES: readonly CapsuleStatus[] = ['active', 'paused', 'abandoned'];

/** How many active capsules are read per round, newest first: most resumes need only the first. */
export const ACTIVE_READ_ROUNDS: readonly number[] = [8, 64, 512];

/**
 * Feeds selection from the store's derived index without a blob read: consumed capsules are
 * counted, the others listed with id, path and derived status, and only active capsules' texts
 * are read, newest first, in growing rounds until one is selected. With `capsuleId` only that capsule competes.
 * Store failures become `unavailable`, never exceptions.
 */
export async function selectFromStore(store: MemoryStore, opts: { now: Date; capsuleId?: string }): Promise<Selection> {
  try {
    if (!(await store.exists())) return unavailableSelection('no-memory-branch', `${store.ref} does not exist`);
    if (opts.capsuleId !== undefined) return await selectById(store, opts.capsuleId, opts.now);
    // Consumed capsules pile up without bound: count them (one small read), list only the rest.
    const [counts, entries] = await Promise.all([store.countByStatus(), store.listIndex({ status: LISTED_STATUSES })]);
    const counted = CONSUMED_STATUSES.map((status) => ({ status, count: counts[status as CapsuleStatus] ?? 0 }));
    const candidates: Candidate[] = entries.map((e) => ({ id: e.id, path: e.path, status: e.status, createdAt: e.createdAt }));
    const active = candidates.filter((c) => c.status === 'active');
    let read = 0;
    let selection = selectCapsule(candidates, { now: opts.now, counted });
    for (let round = 0; read < active.length; round += 1) {
      const size = ACTIVE_READ_ROUNDS[round] ?? active.length;
      const batch = active.slice(read, read + size);
      const texts = await store.readTexts(batch.map((c) => c.id));
      for (const c of batch) c.text = texts.get(c.id) ?? null;
      read += batch.length;
      selection = selectCapsule(candidates, { now: opts.now, counted });
      if (selection.capsule !== null) break;
    }
    return selection;
  } catch (err) {
    return unavailableFromError(err);
  }
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
