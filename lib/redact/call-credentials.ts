import type { FindingTally } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';

// A password passed to a call as its second string, with no name saying what it is:
// `server.login("user", "pw")` (smtplib, ftplib, imaplib), `HTTPBasicAuth('user', 'pw')`,
// `auth=('user', 'pw')` (requests), `.authenticate("user", "pw")`, `setPassword("u", "pw")`.

/** The literals these calls hold: a text with none of them has no such call. */
export const CALL_CUES: readonly string[] = ['login(', 'Login(', 'auth(', 'Auth(', 'auth=(', 'auth = (', 'authenticate(', 'Password('];

const CALL = /(?:\b(?:login|Login|authenticate|Authenticate|[A-Za-z]*Auth|[a-z_]*auth|[sS]et_?[pP]assword)\s*\(|\bauth\s*=\s*\()\s*(?<q1>\\?["'])(?:(?!\k<q1>)[^\n]){0,200}\k<q1>\s*,\s*(?<q2>\\?["'])(?<s>(?:(?!\k<q2>)[^\n]){3,200})\k<q2>/g;

/** Replaces the password such a call is given, counting each as `call-credential`. */
export function redactCallCredentials(text: string, tally: FindingTally): string {
  return text.replace(CALL, (match: string, ...rest: unknown[]) => {
    const groups = rest[rest.length - 1] as { q2: string; s: string };
    if (isPlaceholderValue(groups.s) || /^\[REDACTED:/.test(groups.s)) return match;
    tally.add('call-credential');
    const at = match.lastIndexOf(`${groups.s}${groups.q2}`);
    return `${match.slice(0, at)}${redactionMarker('call-credential')}${groups.q2}`;
  });
}
