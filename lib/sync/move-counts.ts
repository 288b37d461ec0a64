import { ANY_LAYOUT_DOCUMENT, ANY_LAYOUT_STATUS_FILE } from '../store/layout-paths';
import type { TreeListing } from './merge-listings';

/** How many capsule documents and status events one side lacks, and documents both hold differently. */
export interface SyncCounts {
  capsules: number;
  events: number;
  /** Documents both sides hold with different versions (resolved by `updated_at`). */
  changed: number;
}

/**
 * What a sync moves: `incoming` is what the remote has that this clone lacks, `outgoing` the
 * reverse (counted over the source files only; the index is derived).
 */
export function countMoves(ours: TreeListing, theirs: TreeListing): { incoming: SyncCounts; outgoing: SyncCounts } {
  return { incoming: missingFrom(ours, theirs), outgoing: missingFrom(theirs, ours) };
}

function missingFrom(target: TreeListing, source: TreeListing): SyncCounts {
  const counts: SyncCounts = { capsules: 0, events: 0, changed: 0 };
  for (const [path, file] of source) {
    const has = target.get(path);
    if (ANY_LAYOUT_DOCUMENT.test(path)) {
      if (!has) counts.capsules += 1;
      else if (has.oid !== file.oid) counts.changed += 1;
    } else if (ANY_LAYOUT_STATUS_FILE.test(path) && !has) {
      counts.events += 1;
    }
  }
  return counts;
}

/**
 * Counts from `git diff-tree -r -z --no-renames --name-status <from> <to>` output: what `to`
 * adds (A) or changes (M) relative to `from`. Cheap for a fast-forward: only differing subtrees
 * are read, however many capsules the branch holds.
 */
export function countDiff(diffTreeZ: string): SyncCounts {
  const counts: SyncCounts = { capsules: 0, events: 0, changed: 0 };
  const fields = diffTreeZ.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i]!;
    const path = fields[i + 1]!;
    if (ANY_LAYOUT_DOCUMENT.test(path)) {
      if (status === 'A') counts.capsules += 1;
      else if (status === 'M') counts.changed += 1;
    } else if (ANY_LAYOUT_STATUS_FILE.test(path) && status === 'A') {
      counts.events += 1;
    }
  }
  return counts;
}
