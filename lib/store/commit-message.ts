import { foldHidden } from '../capsule/hidden-characters';
import type { IndexEntry } from './types';

/** What a capsule commit says: the operation in the subject, the data selection needs in trailers. */
export function capsuleCommitMessage(op: string, entry: IndexEntry, extra: Record<string, string> = {}, headline?: string): string {
  const about = commitLine(headline ?? entry.objective ?? '');
  const subject = `${op} ${entry.id}${about ? `: ${about.length > 72 ? `${about.slice(0, 72)}…` : about}` : ''}`;
  const trailers: Record<string, string> = {
    'Capsule-Id': entry.id,
    'Capsule-Op': op,
    'Capsule-Status': entry.status,
    'Capsule-Created-At': entry.createdAt || 'unknown',
    'Capsule-Session': entry.sessionId ?? 'none',
    'Capsule-Trigger': entry.trigger ?? 'none',
    ...extra,
  };
  const lines = Object.entries(trailers).map(([k, v]) => `${k}: ${commitLine(v).slice(0, 200) || 'none'}`);
  return `${subject}\n\n${lines.join('\n')}\n`;
}

/** The message of a commit that is not about one capsule (init, rebuild-index). */
export function opCommitMessage(op: string, summary: string): string {
  return `${op}: ${commitLine(summary)}\n\nCapsule-Op: ${op}\n`;
}

/**
 * A value as one line of a commit message. Plain `git log capsules` prints a subject byte for
 * byte: no control, escape or hidden character of a capsule's objective may reach a terminal
 * through it.
 */
export function commitLine(value: string): string {
  return foldHidden(value).replace(/\s+/g, ' ').trim();
}
