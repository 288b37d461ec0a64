import { resolveSessionAuthority, SESSION_ID_UNAVAILABLE } from '../../lib/resume/session-authority';
import { activeCandidate, renderFor } from './render-support';

const receiptPath = '/repo/.git/capsule/boot-receipt.json';

describe('resolveSessionAuthority', () => {
  it('uses the hook id over a stale receipt and names the mismatch with the overridden value', () => {
    const session = resolveSessionAuthority('session-B', { state: 'read', path: receiptPath, sessionId: 'session-A' });
    expect(session).toEqual({ sessionId: 'session-B', source: 'hook', crossCheck: { result: 'mismatch', path: receiptPath, overridden: 'session-A' } });
  });

  it('records a match when the receipt agrees', () => {
    expect(resolveSessionAuthority('session-B', { state: 'read', path: receiptPath, sessionId: 'session-B' })).toMatchObject({ sessionId: 'session-B', crossCheck: { result: 'match' } });
  });

  it.each([
    [{ state: 'absent', path: receiptPath } as const, 'absent'],
    [{ state: 'unreadable', path: receiptPath, code: 'EACCES' } as const, 'unreadable'],
    [{ state: 'malformed', path: receiptPath } as const, 'malformed'],
    [{ state: 'read', path: receiptPath, sessionId: '' } as const, 'no-session-id'],
  ])('degrades to the hook id when the receipt is %o', (receipt, why) => {
    expect(resolveSessionAuthority('session-B', receipt)).toMatchObject({ sessionId: 'session-B', crossCheck: { result: 'no-receipt', why } });
  });

  it('never takes an id from the receipt when the hook gave none', () => {
    expect(resolveSessionAuthority(undefined, { state: 'read', path: receiptPath, sessionId: 'session-A' })).toEqual({ sessionId: null, source: 'unavailable', invalid: null });
  });

  it.each([[{ id: 'x' }, 'an object'], [['x'], 'an array'], [42, 'a number'], ['  ', 'an empty string']])('treats the hook id %p as invalid', (value, invalid) => {
    expect(resolveSessionAuthority(value, null)).toEqual({ sessionId: null, source: 'unavailable', invalid });
  });
});

describe('the current-session lines of the resume text', () => {
  it('renders the hook id and the stale receipt value as quoted data on a mismatch line', () => {
    const { text } = renderFor([activeCandidate(1)], { hookId: 'session-B', receipt: { state: 'read', path: receiptPath, sessionId: 'session-A' } });
    expect(text).toMatch(/^current session: "session-B" \(source: the hook's session_id/m);
    expect(text).toContain(`cross-check: MISMATCH: boot receipt "${receiptPath}" holds "session-A"`);
  });

  it('records the match with the resolved receipt path', () => {
    const { text } = renderFor([activeCandidate(1)], { hookId: 'session-B', receipt: { state: 'read', path: receiptPath, sessionId: 'session-B' } });
    expect(text).toContain(`cross-check: boot receipt "${receiptPath}" names the same session (match recorded)`);
  });

  it('renders CURRENT_SESSION_ID_UNAVAILABLE without naming the receipt when the hook gave no id', () => {
    const { text } = renderFor([activeCandidate(1)], { hookId: undefined, receipt: { state: 'read', path: receiptPath, sessionId: 'session-A' } });
    expect(text).toContain(`current session: ${SESSION_ID_UNAVAILABLE}`);
    expect(text).not.toContain('session-A');
    expect(text).not.toContain('boot-receipt');
    expect(text).not.toMatch(/receipt/i);
  });

  it('never renders a non-string hook id as [object Object]', () => {
    const { text } = renderFor([activeCandidate(1)], { hookId: { id: 'x' } });
    expect(text).not.toContain('[object Object]');
    expect(text).toContain(`current session: ${SESSION_ID_UNAVAILABLE} (the hook's session_id was invalid: an object`);
  });

  it('shows the capsule\'s own session_id only as the historical writer', () => {
    const { text } = renderFor([activeCandidate(1, { session_id: 'session-OLD' })], { hookId: 'session-B' });
    expect(text).toMatch(/^written in session: "session-OLD" \(the writer's: historical, not the current session\)/m);
    expect(text).toMatch(/^current session: "session-B"/m);
  });
});
