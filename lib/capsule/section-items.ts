/**
 * The conventions of body-section items that writers and the resume share: an error item opens
 * with `open:` or `resolved:` (a resolved one names what fixed it after ` → `), a file item with
 * `modified:` or `read:`. Items without the prefix (an older autosave, a hand-written capsule)
 * are read by their words: `→` or `resolved` marks an error resolved.
 */

/** An error item's state. */
export type ErrorState = 'open' | 'resolved';

/** The prefix of an open error item. */
export const OPEN_PREFIX = 'open: ';
/** The prefix of a resolved error item; ` → ` separates the error from what resolved it. */
export const RESOLVED_PREFIX = 'resolved: ';
export const RESOLVED_BY = ' → ';

/** Whether an error item is open or resolved. */
export function errorState(item: string): ErrorState {
  if (item.startsWith(OPEN_PREFIX)) return 'open';
  if (/\bunresolved\b/i.test(item)) return 'open';
  return item.startsWith(RESOLVED_PREFIX) || item.includes('→') || /\bresolved\b/i.test(item) ? 'resolved' : 'open';
}

/** The kind of a file item, or null for an item that names neither. */
export function fileKind(item: string): 'modified' | 'read' | null {
  if (item.startsWith('modified: ')) return 'modified';
  if (item.startsWith('read: ')) return 'read';
  return null;
}

/** The path of a file item (`modified: src/a.ts (Edit)` → `src/a.ts`), or null. */
export function filePath(item: string): string | null {
  const kind = fileKind(item);
  if (kind === null) return null;
  return item.slice(kind.length + 2).replace(/ \([^)]*\)$/, '');
}
