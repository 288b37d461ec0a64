import { writeConflict, type ImportOutcome } from './fast-import';

/** One attempt of a compare-and-swap write: a final value, or the outcome of a lost race. */
export type Attempt<T> = { done: true; value: T } | { done: false; outcome: Extract<ImportOutcome, { ok: false }> };

/** Retry bounds: 8 writers × 50 writes on 2 cores settle well within these. */
export const CAS_RETRY = { maxAttempts: 25, baseDelayMs: 5, maxDelayMs: 250 } as const;

/**
 * Runs `attempt` under the local write lock until it wins the compare-and-swap, each time from the new tip, sleeping a
 * jittered, growing delay between tries so racing writers spread out. Throws WRITE_CONFLICT
 * after `maxAttempts` lost races.
 */
export async function withCasRetry<T>(
  parts: { ref: string; lock?: () => Promise<() => Promise<void>> },
  attempt: () => Promise<Attempt<T>>,
  bounds: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number } = CAS_RETRY,
): Promise<T> {
  const release = parts.lock ? await parts.lock() : async () => undefined;
  try {
    let reason = '';
    for (let i = 0; i < bounds.maxAttempts; i += 1) {
      const result = await attempt();
      if (result.done) return result.value;
      reason = result.outcome.reason;
      const ceiling = Math.min(bounds.maxDelayMs, bounds.baseDelayMs * 2 ** i);
      await new Promise((r) => setTimeout(r, Math.random() * ceiling));
    }
    throw writeConflict(parts.ref, bounds.maxAttempts, reason);
  } finally {
    await release();
  }
}
