import { errorState, filePath, fileKind, OPEN_PREFIX, RESOLVED_BY, RESOLVED_PREFIX } from '../capsule/section-items';

const FOLDED_ITEM = /^… (\d+) earlier items? folded$/;

/** A section's items and how many earlier ones were folded away. */
interface Bounded {
  items: string[];
  folded: number;
}

/**
 * Folds file events into the Files section in time order (the resume shows the newest first):
 * a file touched again moves to the end, and a file modified is no longer listed as read.
 * Bounded to `max` items; what the bound drops is counted in a leading folded line.
 */
export function mergeFiles(existing: readonly string[], events: ReadonlyArray<{ kind: 'read' | 'modified'; path: string }>, max: number): string[] {
  const list = unfold(existing);
  // By path, in time order (a Map keeps insertion order: re-inserting moves a file to the end).
  const byPath = new Map<string, string>();
  const other: string[] = [];
  for (const item of list.items) {
    const path = filePath(item);
    if (path === null) other.push(item);
    else {
      byPath.delete(path);
      byPath.set(path, item);
    }
  }
  for (const e of events) {
    const kind = e.kind === 'modified' || fileKind(byPath.get(e.path) ?? '') === 'modified' ? 'modified' : 'read';
    byPath.delete(e.path);
    byPath.set(e.path, `${kind}: ${e.path}`);
  }
  // Files only read go first, so every modified file is kept as long as the bound allows.
  return fold({ items: [...other, ...byPath.values()], folded: list.folded }, max, (i) => (fileKind(i) === 'modified' ? 1 : 0));
}

/**
 * Folds errors and resolutions into the Errors section: an error is listed `open: …` (a repeat
 * replaces its earlier item), a resolution rewrites the open item as `resolved: … → by`. Over
 * `max`, the oldest resolved items go first, then the oldest open ones.
 */
export function mergeErrors(existing: readonly string[], events: ReadonlyArray<{ kind: 'error'; text: string } | { kind: 'resolution'; resolves: string; by: string }>, max: number): string[] {
  const list = unfold(existing);
  for (const e of events) {
    const subject = e.kind === 'error' ? e.text : e.resolves;
    list.items = list.items.filter((i) => i !== `${OPEN_PREFIX}${subject}` && !i.startsWith(`${RESOLVED_PREFIX}${subject}${RESOLVED_BY}`));
    list.items.push(e.kind === 'error' ? `${OPEN_PREFIX}${e.text}` : `${RESOLVED_PREFIX}${e.resolves}${RESOLVED_BY}${e.by}`);
  }
  return fold(list, max, (i) => (errorState(i) === 'resolved' ? 0 : 1));
}

function unfold(items: readonly string[]): Bounded {
  const out: Bounded = { items: [], folded: 0 };
  for (const item of items) {
    const m = FOLDED_ITEM.exec(item);
    if (m) out.folded += Number(m[1]);
    else out.items.push(item);
  }
  return out;
}

// Drops the oldest items of the lowest keep-rank first until the list fits, the folded line included.
function fold(list: Bounded, max: number, rank: (item: string) => number): string[] {
  const limit = Math.max(1, max);
  let { items, folded } = list;
  while (items.length + (folded > 0 ? 1 : 0) > limit && items.length > 0) {
    const lowest = Math.min(...items.map(rank));
    const at = items.findIndex((i) => rank(i) === lowest);
    items = [...items.slice(0, at), ...items.slice(at + 1)];
    folded += 1;
  }
  return folded > 0 ? [`… ${folded} earlier item${folded === 1 ? '' : 's'} folded`, ...items] : items;
}
