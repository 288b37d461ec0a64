import { writeConflict, type ImportOutcome } from '../git/fast-import';
import { clearStaleRefLock } from '../git/stale-ref-lock';

/** One attempt of a compare-and-swap write: a final value, or the outcome of a lost race. */
export type Attempt<T> = { done: true; value: T } | { done: false; outcome: Extract<ImportOutcome, { ok: false }> };

/** Retry bounds: 8 writers × 50 writes on 2 cores settle well within these. */
export const CAS_RETRY = { maxAttempts: 25, baseDelayMs: 5, maxDelayMs: 250 } as const;

/**
 * Runs `attempt` until it wins the compare-and-swap, each time from the new tip. The first try
 * is optimistic (no lock: a lone writer pays nothing); after a lost race the writer queues
 * behind the local write lock, and further losses (a writer on another machine or without
 * the lock) sleep a jittered, growing delay. A git ref lock left by a killed writer is removed
 * once it is stale (see clearStaleRefLock). Throws WRITE_CONFLICT
 * after `maxAttempts` lost races, and whatever `parts.guard` throws before the first attempt
 * (MEMORY_REF_CHECKED_OUT).
 */
export async function withCasRetry<T>(
  parts: { ref: string; lock?: () => Promise<() => Promise<void>>; guard?: () => Promise<void> },
  attempt: () => Promise<Attempt<T>>,
  bounds: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number } = CAS_RETRY,
): Promise<T> {
  await parts.guard?.();
  let release: (() => Promise<void>) | null = null;
  try {
    let reason = '';
    for (let i = 0; i < bounds.maxAttempts; i += 1) {
      const result = await attempt();
      if (result.done) return result.value;
      reason = result.outcome.reason;
      // Lost once: someone else is writing now, so queue behind the local lock from here on.
      if (release === null && parts.lock) release = await parts.lock();
      // Or no one is: a writer killed while holding git's ref lock left it behind.
      else if (await clearStaleRefLock(reason)) continue;
      else await new Promise((r) => setTimeout(r, Math.random() * Math.min(bounds.maxDelayMs, bounds.baseDelayMs * 2 ** i)));
    }
    throw writeConflict(parts.ref, bounds.maxAttempts, reason);
  } finally {
    if (release) await release();
  }
}
