import type { LineageRecord } from '../../local-state/lineage-record';

/**
 * The core's SessionStart source for a Copilot `sessionStart`. Copilot says `new` for a fresh
 * client and for the session a `/clear` or `/new` starts in the same client (at its first
 * prompt), and `resume` for `--continue`/`--resume`. A `new` whose client process already ran
 * another session (its lineage record names one) is the session after a `/clear` (or a `/new`,
 * which nothing tells apart: both end the session with `user_exit` and start a `new` one), and
 * resumes it; any other `new` is a start.
 */
export function copilotSessionSource(source: string, sessionId: string | undefined, record: LineageRecord | null): string {
  if (source !== 'new') return source === 'resume' ? 'resume' : 'startup';
  if (record === null || sessionId === undefined) return 'startup';
  const earlier = record.session !== undefined && record.session !== sessionId;
  // Run again for the same session (two registrations): it was taken already, the chain says so.
  const taken = record.session === sessionId && record.chain.length > 0;
  return earlier || taken ? 'clear' : 'startup';
}
