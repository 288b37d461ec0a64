import type { CapsuleStatus } from '../capsule/types';
import { eventStamp, safeWriter } from './memory-format';
import { isStatus } from './status-lattice';
import type { StatusEvent } from './types';

/** The file name of a status event: `<stamp>-<writer>-<status>` (unique per writer and millisecond). */
export function eventName(opts: { now: Date; writer: string; status: CapsuleStatus }): string {
  return `${eventStamp(opts.now)}-${safeWriter(opts.writer)}-${opts.status}`;
}

/** The small file an event holds: the same facts, readable with `git show`. */
export function eventText(opts: { now: Date; writer: string; status: CapsuleStatus }): string {
  return `status: ${opts.status}\nwriter: ${safeWriter(opts.writer)}\nat: ${opts.now.toISOString()}\n`;
}

/** Parses an event file name; null for a name that is not an event (ignored, never guessed). */
export function parseEventName(name: string, dir: string): StatusEvent | null {
  const first = name.indexOf('-');
  const last = name.lastIndexOf('-');
  if (first <= 0 || last <= first) return null;
  const status = name.slice(last + 1);
  if (!isStatus(status)) return null;
  return { stamp: name.slice(0, first), writer: name.slice(first + 1, last), status, path: `${dir}/${name}` };
}

/** Events oldest first (stamps sort as instants; ties by name so every machine agrees). */
export function sortEvents(events: StatusEvent[]): StatusEvent[] {
  return [...events].sort((a, b) => (a.stamp === b.stamp ? (a.path < b.path ? -1 : 1) : a.stamp < b.stamp ? -1 : 1));
}
