import { parseEventName, sortEvents } from './status-events';
import { maxStatus } from './status-lattice';
import type { TreeListing } from './sync-merge';
import type { IndexEntry, StatusEvent } from './types';

/** One capsule of a merged tree: where its document is, which blob, and its status events. */
export interface CapsuleSource {
  id: string;
  month: string;
  docPath: string;
  oid: string;
  events: StatusEvent[];
}

/** One side of a merge as the index rebuild sees it: its tree listing and its own index entries. */
export interface IndexSide {
  listing: TreeListing;
  entries: readonly IndexEntry[];
}

const CAPSULE_FILE = /^capsules\/(\d{4}\/\d{2})\/([^/]+)\/(?:capsule\.md|status\/([^/]+))$/;

/**
 * The capsules of a tree listing, grouped by directory, sorted by path. A directory with status
 * events but no document is skipped: the index lists documents only.
 */
export function capsuleSources(files: TreeListing): CapsuleSource[] {
  const byDir = new Map<string, { id: string; month: string; docPath?: string; oid?: string; events: StatusEvent[] }>();
  for (const [path, file] of files) {
    const m = CAPSULE_FILE.exec(path);
    if (!m) continue;
    const [, month, id, eventFile] = m as unknown as [string, string, string, string | undefined];
    const dir = `capsules/${month}/${id}`;
    const slot = byDir.get(dir) ?? { id, month, events: [] };
    byDir.set(dir, slot);
    if (eventFile === undefined) {
      slot.docPath = path;
      slot.oid = file.oid;
    } else {
      const event = parseEventName(eventFile, `${dir}/status`);
      if (event) slot.events.push(event);
    }
  }
  const out: CapsuleSource[] = [];
  for (const dir of [...byDir.keys()].sort()) {
    const s = byDir.get(dir)!;
    if (s.docPath !== undefined && s.oid !== undefined) out.push({ id: s.id, month: s.month, docPath: s.docPath, oid: s.oid, events: sortEvents(s.events) });
  }
  return out;
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
  const entries: IndexEntry[] = [];
  const unread: CapsuleSource[] = [];
  for (const c of capsules) {
    const candidates: IndexEntry[] = [];
    sides.forEach((side, i) => {
      const entry = byId[i]!.get(c.id);
      if (side.listing.get(c.docPath)?.oid === c.oid && entry && entry.path === c.docPath) candidates.push(entry);
    });
    const first = candidates[0];
    if (!first || candidates.some((e) => staticKey(e) !== staticKey(first))) {
      unread.push(c);
      continue;
    }
    entries.push({ ...first, status: maxStatus([...candidates.map((e) => e.status), ...c.events.map((e) => e.status)]) });
  }
  return { entries, unread };
}

/** Everything in an entry that comes from the document alone (not from status events). */
function staticKey(e: IndexEntry): string {
  return JSON.stringify([e.id, e.createdAt, e.sortKey, e.trigger ?? null, e.objective ?? null, e.sessionId ?? null, e.path]);
}
