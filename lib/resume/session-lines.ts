import { inert } from '../capsule/inert';
import { SESSION_ID_UNAVAILABLE, type SessionAuthority } from './session-authority';

/**
 * The `current session` lines. The receipt path appears only in cross-check lines, which render
 * only when the hook gave an id; without one, nothing points anywhere a stale id could be read.
 */
export function renderSessionLines(session: SessionAuthority): string[] {
  if (session.source === 'unavailable') {
    const why = session.invalid === null ? 'the hook gave no session id' : `the hook's session_id was invalid: ${session.invalid}, not a non-empty string`;
    return [`current session: ${SESSION_ID_UNAVAILABLE} (${why}). Do not guess one and do not take one from the capsule.`];
  }
  const lines = [`current session: ${inert(session.sessionId, { max: 120 })} (source: the hook's session_id, the only authority)`];
  const check = session.crossCheck;
  switch (check.result) {
    case 'match':
      lines.push(`  cross-check: boot receipt ${inert(check.path, { max: 160 })} names the same session (match recorded)`);
      break;
    case 'mismatch':
      lines.push(
        `  cross-check: MISMATCH: boot receipt ${inert(check.path, { max: 160 })} holds ${inert(check.overridden, { max: 120 })}, stale from an earlier boot; overridden by the hook id.`,
      );
      break;
    case 'no-receipt':
      lines.push(`  cross-check: boot receipt ${inert(check.path, { max: 160 })} ${RECEIPT_WHY[check.why]}; the hook id above is used.`);
      break;
    case 'not-checked':
      break;
  }
  return lines;
}

const RECEIPT_WHY = {
  absent: 'is absent',
  unreadable: 'is unreadable',
  malformed: 'is not valid JSON',
  'no-session-id': 'holds no session id',
} as const;
