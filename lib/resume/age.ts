import { inert } from '../capsule/inert';

/** Past this age CAPSULE DATA warns that the next action describes a world that is gone. Not a rejection. */
export const STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

/** A coarse human duration: `3 days 4 hours`, `12 minutes`, `under a minute`. */
export function formatDuration(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  if (minutes < 1) return 'under a minute';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (days > 0) return hours > 0 ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
  if (hours > 0) return mins > 0 ? `${unit(hours, 'hour')} ${unit(mins, 'minute')}` : unit(hours, 'hour');
  return unit(mins, 'minute');
}

/**
 * The age lines of CAPSULE DATA, rendered every time: the age against this run's clock, then
 * either the staleness warning (past STALE_AFTER_MS) or the reminder that freshness is not
 * correctness. A stale capsule is still selected; it must announce itself instead.
 */
export function renderAgeLines(createdAt: unknown, ageMs: number, now: Date): string[] {
  const stamp = `created_at ${inert(createdAt, { max: 60 })}, this run's clock ${now.toISOString()}`;
  const lines =
    ageMs < 0
      ? [`age: created_at lies ${formatDuration(ageMs)} in the future of this run's clock (${stamp}); clocks disagree, so treat the age as unknown.`]
      : [`age: ${formatDuration(ageMs)} (${stamp})`];
  if (ageMs > STALE_AFTER_MS) {
    lines.push(
      `AGE WARNING: older than ${STALE_AFTER_MS / 86_400_000} days. Its next_valid_action describes a world that is probably gone: re-ground everything in step 2; every value is a lead to check, not a fact.`,
    );
  } else {
    lines.push('freshness is not correctness: even a minutes-old capsule can describe work since finished elsewhere; verify each value against live state.');
  }
  return lines;
}
