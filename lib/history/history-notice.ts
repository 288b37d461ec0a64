import type { HistoryProjection } from './history-types';

const MAX_NAMED = 5;

/**
 * The bounded incomplete-history notice that opens every history page whose branch misses an
 * ancestor (empty pages and query errors included), or null when the history is complete. It
 * is outside event text, search matches and read offsets.
 */
export function incompleteHistoryNotice(projection: Pick<HistoryProjection, 'missing' | 'sessionId' | 'neededByLine'>): string | null {
  const { missing, sessionId, neededByLine } = projection;
  if (missing.length === 0) return null;
  const named = missing.slice(0, MAX_NAMED).map((u) => u.slice(0, 64));
  const more = missing.length > MAX_NAMED ? ` and ${missing.length - MAX_NAMED} more` : '';
  return (
    `[incomplete history] The selected branch needs ${missing.length} ancestor record(s) this transcript does not hold: ${named.join(', ')}${more}${neededByLine === undefined ? '' : ` (named by line ${neededByLine})`}. ` +
    `Earlier events are not shown and nothing was joined across the gap; window ordinals are unknown, so the events after the gap sit in ` +
    `segment claude:${sessionId.slice(0, 64)}:unknown:${named[0]}.`
  );
}
