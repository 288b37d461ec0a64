import { isSafeId } from '../store/memory-format';
import { V3_CAPSULE_FILE } from '../store/layout-paths';
import { parseEventName, sortEvents } from '../store/status-events';
import { maxStatus } from '../store/status-lattice';
import type { TreeListing } from './merge-listings';
import type { IndexEntry, StatusEvent } from '../store/types';
import type { CapsuleStatus } from '../capsule/types';

/** One capsule of a merged tree: its directory, where its document is, which blob, and its status events. */
export interface CapsuleSource {
  id: string;
  dir: string;
  docPath: string;
  /** The document blob; null for a directory holding only status events (indexed from no fields, as the store's rebuild does). */
  oid: string | null;
  events: StatusEvent[];
}

/** One side of a merge as the index rebuild sees it: its tree listing and its own index entries. */
export interface IndexSide {
  listing: TreeListing;
  entries: readonly IndexEntry[];
}

/**
 * The capsules of a tree listing (every `capsules/<yyyy-mm-dd>/<id>/` directory), sorted by path:
 * any file in one makes a capsule directory, as the store's rebuild sees it (the merge reads
 * older layouts through canonicalListing first).
 */
export function capsuleSources(files: TreeListing): CapsuleSource[] {
  const byDir = new Map<string, { id: string; oid: string | null; events: StatusEvent[] }>();
  for (const [path, file] of files) {
    const m = V3_CAPSULE_FILE.exec(path);
    if (!m || !isSafeId(m[2])) continue;
    const [, dir, id, rest] = m as unknown as [string, string, string, string];
    const slot = byDir.get(dir) ?? { id, oid: null, events: [] };
    byDir.set(dir, slot);
    if (rest === 'capsule.md') {
      slot.oid = file.oid;
    } else if (/^status\/[^/]+$/.test(rest)) {
      const event = parseEventName(rest.slice('status/'.length), `${dir}/status`);
      if (event) slot.events.push(event);
    }
  }
  return [...byDir.keys()].sort().map((dir) => {
    const s = byDir.get(dir)!;
    return { id: s.id, dir, docPath: `${dir}/capsule.md`, oid: s.oid, events: sortEvents(s.events) };
  });
}

/**
 * Index entries for the merged capsules, reused from the sides' own indexes wherever that is
 * exact: an entry describes one document blob plus that side's events, so for a document both
 * (or one) side(s) hold unchanged, its fields carry over and its status is the lattice maximum
 * of the sides' statuses and the merged events. When the candidate entries disagree, or none
 * exists, the capsule is returned in `unread` and must be summarised from its document. The
 * answer does not depend on the order of `sides`.
 */
export function reuseIndexEntries(capsules: readonly CapsuleSource[], sides: readonly IndexSide[]): { entries: IndexEntry[]; unread: CapsuleSource[] } {
  const byId = sides.map((s) => new Map(s.entries.map((e) => [e.id, e])));
  const sideStatus = sides.map((s) => eventStatuses(s.listing));
  const entries: IndexEntry[] = [];
  const unread: CapsuleSource[] = [];
  for (const c of capsules) {
    const candidates: IndexEntry[] = [];
    for (let i = 0; i < sides.length; i += 1) {
      const entry = byId[i]!.get(c.id);
      // An entry's status must be what its own side's events give: an index rewritten alone (a
      // remote's commit marking an active capsule consumed, or a consumed one active) is not
      // believed, and the document is read instead (one whose own status field is not active, too).
      if (c.oid !== null && entry && entry.path === c.docPath && sides[i]!.listing.get(c.docPath)?.oid === c.oid && entry.status === (sideStatus[i]!.get(c.id) ?? 'active')) candidates.push(entry);
    }
    const first = candidates[0];
    if (!first || candidates.some((e) => e !== first && !sameDocumentFields(e, first))) {
      unread.push(c);
      continue;
    }
    entries.push({ ...first, status: maxStatus([...candidates.map((e) => e.status), ...c.events.map((e) => e.status)]) });
  }
  return { entries, unread };
}

/** Capsule id → the lattice maximum of its status events in `listing` (capsules without events absent). */
function eventStatuses(listing: TreeListing): Map<string, CapsuleStatus> {
  const out = new Map<string, CapsuleStatus>();
  for (const c of capsuleSources(listing)) if (c.events.length > 0) out.set(c.id, maxStatus(c.events.map((e) => e.status)));
  return out;
}

/** True when two entries agree on everything that comes from the document alone (not from status events). */
function sameDocumentFields(a: IndexEntry, b: IndexEntry): boolean {
  return a.id === b.id && a.createdAt === b.createdAt && a.sortKey === b.sortKey && a.trigger === b.trigger &&
    a.objective === b.objective && a.sessionId === b.sessionId && a.path === b.path;
}
