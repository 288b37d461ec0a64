/** Rendered when the hook gave no usable session id: never guessed, never taken from a file. */
export const SESSION_ID_UNAVAILABLE = 'CURRENT_SESSION_ID_UNAVAILABLE';

/** What the runtime found in the boot receipt; read only when the hook supplied an id. */
export type BootReceipt =
  | { state: 'absent'; path: string }
  | { state: 'unreadable'; path: string; code: string }
  | { state: 'malformed'; path: string }
  | { state: 'read'; path: string; sessionId: unknown };

/** The current session's identity and where it came from. */
export type SessionAuthority =
  | { sessionId: string; source: 'hook'; crossCheck: CrossCheck }
  | { sessionId: null; source: 'unavailable'; invalid: string | null };

/** The receipt cross-check: recorded when it matches, named with the overridden value when not. */
export type CrossCheck =
  | { result: 'match'; path: string }
  | { result: 'mismatch'; path: string; overridden: unknown }
  | { result: 'no-receipt'; path: string; why: 'absent' | 'unreadable' | 'malformed' | 'no-session-id' }
  | { result: 'not-checked' };

/**
 * Decides the current session id. The hook's `session_id` is the only authority and must be a
 * non-empty string (a non-string is invalid, never coerced to `[object Object]`); the boot
 * receipt is a cross-check only. A stale receipt can never override the hook id, and without a
 * hook id the receipt is neither used nor offered: a receipt-only value can only be stale.
 *
 * @example resolveSessionAuthority('B', { state: 'read', path, sessionId: 'A' }).crossCheck // { result: 'mismatch', overridden: 'A', … }
 */
export function resolveSessionAuthority(hookSessionId: unknown, receipt: BootReceipt | null): SessionAuthority {
  if (hookSessionId === undefined || hookSessionId === null) return { sessionId: null, source: 'unavailable', invalid: null };
  if (typeof hookSessionId !== 'string') {
    const kind = Array.isArray(hookSessionId) ? 'array' : typeof hookSessionId;
    return { sessionId: null, source: 'unavailable', invalid: `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}` };
  }
  if (hookSessionId.trim() === '') return { sessionId: null, source: 'unavailable', invalid: 'an empty string' };
  return { sessionId: hookSessionId, source: 'hook', crossCheck: crossCheck(hookSessionId, receipt) };
}

function crossCheck(hookId: string, receipt: BootReceipt | null): CrossCheck {
  if (receipt === null) return { result: 'not-checked' };
  if (receipt.state !== 'read') return { result: 'no-receipt', path: receipt.path, why: receipt.state };
  const onDisk = receipt.sessionId;
  if (typeof onDisk !== 'string' || onDisk === '') {
    return onDisk === undefined || onDisk === null || onDisk === ''
      ? { result: 'no-receipt', path: receipt.path, why: 'no-session-id' }
      : { result: 'mismatch', path: receipt.path, overridden: onDisk };
  }
  return onDisk === hookId ? { result: 'match', path: receipt.path } : { result: 'mismatch', path: receipt.path, overridden: onDisk };
}
