import { parseCapsule } from '../capsule/parse';
import type { StoreObjectReader } from '../git/cat-file-batch';
import { summarizeCapsule } from '../store/capsule-summary';
import type { GitRunner } from '../git/git-runner';
import { CapsuleError } from '../errors/capsule-error';
import { FORMAT_PATH, FORMAT_TEXT, FORMAT_VERSION, formatVersion } from '../store/memory-format';
import { V3_CAPSULE_ENTRY, V3_TOMBSTONE } from '../store/layout-paths';
import { canonicalListing } from './canonical-listing';
import { buildIndexFiles, INDEX_DIR, COUNTS_PATH, dayOfSortKey, encodeCounts, parseCounts, parseShard } from '../store/selection-index';
import { isStatus } from '../store/status-lattice';
import { uniqueLeftOut, withoutUnsafePaths, type LeftOut } from './fsck-paths';
import { capsuleSources, reuseIndexEntries, type CapsuleSource, type IndexSide } from './index-reuse';
import { findDocumentConflicts, mergeListings, type MergeLayout, type MergeResolution, type TreeFile, type TreeListing } from './merge-listings';
import type { IndexEntry } from '../store/types';
import { dayFolderOf, type MergeScope } from './merge-scope';

/** A scoped merge (lib/sync/merge-scope.ts) met a capsule or index line reaching outside its days: the caller reads the whole trees instead. */
export class OutOfScope extends Error {
  constructor(why: string) {
    super(`merge scope too narrow: ${why}`);
  }
}

/** The memory branch layout as the merge sees it: `index/` is derived; `FORMAT` is set aside before the union (see mergeTrees). */
export const MEMORY_LAYOUT: MergeLayout = {
  isDerived: (path) => path.startsWith(`${INDEX_DIR}/`),
  isDocument: (path) => path.startsWith('capsules/') && path.endsWith('/capsule.md'),
  mustAgree: (path) => path === FORMAT_PATH,
};

/**
 * Every blob and gitlink of a commit's tree (`ls-tree -r -z`), path → mode and object id (a
 * gitlink is kept so sync can leave it out, and say so); with `paths`, only those under them
 * (lib/sync/merge-scope.ts). Throws GIT_FAILED.
 */
export async function listTree(git: GitRunner, commit: string, paths: readonly string[] = []): Promise<Map<string, TreeFile>> {
  const out = await git.run(['ls-tree', '-r', '-z', '--full-tree', commit, ...paths]);
  const files = new Map<string, TreeFile>();
  for (const record of out.stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', type, oid = ''] = record.slice(0, tab).split(' ');
    if (type === 'blob' || type === 'commit') files.set(record.slice(tab + 1), { mode, oid });
  }
  return files;
}

/** A merged memory tree: its source files, the texts it writes (the rebuilt index and FORMAT), how conflicts went. */
export interface MergedTree {
  files: Map<string, TreeFile>;
  /** Written inline: the rebuilt index files and, when a side had an older layout, the current FORMAT (path → text). */
  index: Map<string, string>;
  resolutions: MergeResolution[];
  /** Capsules whose index entry had to be computed from the document (the rest were reused). */
  summarized: number;
  /** Each side's own index files (path → text), to write only the index files the merge changes. */
  sideIndexes: [Map<string, string>, Map<string, string>];
  /** Entries of either side sync leaves out (lib/sync/fsck-paths.ts: fsck-refused names, links, gitlinks, too deep); sorted by path. */
  unsafe: LeftOut[];
}

/**
 * Merges two memory trees (see `mergeListings`) and rebuilds the derived index from the result,
 * reading only the conflicting documents, the index files of both sides, and the documents no
 * side's index describes exactly. A side of an older layout (format 1 or 2, as an older git-capsule
 * pushed it) is read with every capsule file moved where the current layout puts it, so the
 * result is always in the current layout. With `sealedHere`, a document this clone sealed keeps its
 * place against a version it did not seal (see mergeListings). Paths git fsck refuses are left out (and named in
 * `unsafe`), so no merge carries them on to a push. Throws SYNC_FORMAT_MISMATCH (a side of a
 * newer layout), GIT_FAILED.
 */
export async function mergeTrees(batch: StoreObjectReader, listedOurs: TreeListing, listedTheirs: TreeListing, opts: { sealedHere?: (text: string) => boolean; scope?: MergeScope } = {}): Promise<MergedTree> {
  const [{ safe: rawOurs, unsafe: oursUnsafe }, { safe: rawTheirs, unsafe: theirsUnsafe }] = [withoutUnsafePaths(listedOurs), withoutUnsafePaths(listedTheirs)];
  const formats = await readBlobs(batch, [rawOurs, rawTheirs].flatMap((l) => (l.get(FORMAT_PATH) ? [l.get(FORMAT_PATH)!.oid] : [])));
  const formatOf = (l: TreeListing) => (l.get(FORMAT_PATH) ? (formats.get(l.get(FORMAT_PATH)!.oid) ?? null) : null);
  refuseNewerFormat(rawOurs, rawTheirs, formatOf);
  const ours = canonicalListing(rawOurs).files;
  const theirs = canonicalListing(rawTheirs).files;
  const texts = await readBlobs(batch, findDocumentConflicts(ours, theirs, MEMORY_LAYOUT).flatMap((p) => [ours.get(p)!.oid, theirs.get(p)!.oid]));
  const { files, resolutions } = mergeListings({ ours, theirs, layout: MEMORY_LAYOUT, texts, ...(opts.sealedHere ? { sealedHere: opts.sealedHere } : {}) });
  dropRetired(files);
  const capsules = capsuleSources(files);
  const [oursIndex, theirsIndex] = await readIndexTexts(batch, [rawOurs, rawTheirs]) as [Map<string, string>, Map<string, string>];
  const sides: IndexSide[] = [
    { listing: ours, entries: indexEntriesOf(oursIndex) },
    { listing: theirs, entries: indexEntriesOf(theirsIndex) },
  ];
  const { entries, unread } = reuseIndexEntries(capsules, sides);
  entries.push(...(await summarizeFromDocuments(batch, unread)));
  const index = buildIndexFiles(entries);
  // FORMAT is kept as a file when both sides already declare the current layout, else written anew.
  const current = [rawOurs, rawTheirs].every((l) => formatOf(l) === FORMAT_TEXT);
  // A layout upgrade moves every folder: only a whole merge does it.
  if (opts.scope && !current) throw new OutOfScope('a side is not in the current layout');
  if (opts.scope) index.set(COUNTS_PATH, scopedCounts(opts.scope, entries, sides, oursIndex));
  if (current) files.set(FORMAT_PATH, rawOurs.get(FORMAT_PATH)!);
  else index.set(FORMAT_PATH, FORMAT_TEXT);
  const withFormat = (side: Map<string, string>, l: TreeListing) => new Map([...side, ...(formatOf(l) === null ? [] : [[FORMAT_PATH, formatOf(l)!] as const])]);
  const unsafe = uniqueLeftOut([...oursUnsafe, ...theirsUnsafe]);
  return { files, index, resolutions, summarized: unread.length, sideIndexes: [withFormat(oursIndex, rawOurs), withFormat(theirsIndex, rawTheirs)], unsafe };
}

/**
 * The counts file of a merge that read only the days of `scope`: this clone's own counts, less
 * its entries of those days, plus the merged entries of those days (every other day is the same
 * on both sides, so the merge keeps its entries as they are). Throws OutOfScope when that is not
 * exact: a merged entry indexed under a day outside the scope (its `created_at` and its id name
 * different days), a side's index line for a capsule outside it, or counts of this clone that are
 * not the current format or do not cover its own entries; the caller then merges the whole trees.
 */
function scopedCounts(scope: MergeScope, merged: readonly IndexEntry[], sides: readonly IndexSide[], oursIndex: ReadonlyMap<string, string>): string {
  for (const e of merged) if (!scope.days.has(dayOfSortKey(e.sortKey))) throw new OutOfScope(`${e.id} is indexed under ${dayOfSortKey(e.sortKey)}`);
  for (const side of sides) for (const e of side.entries) if (!scope.days.has(dayFolderOf(e.path) ?? '')) throw new OutOfScope(`an index line of ${e.id} names ${e.path}`);
  const text = oursIndex.get(COUNTS_PATH);
  const counts = text === undefined ? null : parseCounts(text);
  if (counts === null || encodeCounts(counts) !== text) throw new OutOfScope('this clone has no current counts file');
  for (const e of sides[0]!.entries) counts[e.status] -= 1;
  if (Object.values(counts).some((n) => n < 0)) throw new OutOfScope("this clone's counts do not cover its own index lines");
  for (const e of merged) counts[e.status] += 1;
  return encodeCounts(counts);
}

/**
 * A capsule either side retired stays out of the merge: its tombstone (`retired/…/<id>`) is a
 * file like any other, so the union keeps it, and the capsule's files go. Deterministic, and
 * only finished capsules are ever retired, so no side can hold a later status of one.
 */
function dropRetired(files: Map<string, TreeFile>): void {
  // The listings are canonical (canonicalListing) by now: every tombstone and capsule file is in format 3's place.
  const retired = new Set<string>();
  for (const path of files.keys()) {
    const m = V3_TOMBSTONE.exec(path);
    if (m) retired.add(m[1]!);
  }
  if (retired.size === 0) return;
  for (const path of [...files.keys()]) {
    const m = V3_CAPSULE_ENTRY.exec(path);
    if (m && retired.has(m[1]!)) files.delete(path);
  }
}

/** SYNC_FORMAT_MISMATCH when a side declares a layout newer than this code writes. */
function refuseNewerFormat(ours: TreeListing, theirs: TreeListing, formatOf: (l: TreeListing) => string | null): void {
  for (const [side, listing] of [['local', ours], ['remote', theirs]] as const) {
    const version = formatVersion(formatOf(listing));
    if (version !== null && version > FORMAT_VERSION) {
      throw new CapsuleError(
        'SYNC_FORMAT_MISMATCH',
        `cannot merge memory branches: the ${side} one uses layout ${version}, newer than this git-capsule (layout ${FORMAT_VERSION}); upgrade git-capsule here, then sync again`,
        { side, version, known: FORMAT_VERSION },
      );
    }
  }
}

/** The entries an index holds (its shards; damaged lines are skipped, the counts file ignored). */
export function indexEntriesOf(index: ReadonlyMap<string, string>): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const [path, text] of index) {
    if (path === COUNTS_PATH) continue;
    // index/<status>/<yyyy-mm-dd>/<author>, the previous version's index/<status>/<yyyy-mm-dd> and format 2's
    // index/<status>/<yyyy>/<mm>/<dd> (their lines name the same day, so the same sort keys): format 1
    // derived fallbacks from month folders (index/<status>/<yyyy>/<mm>), so its capsules are read again.
    const [top, status, ...shard] = path.split('/');
    const shape = shard.length === 2 ? (shard[0]!.includes('-') ? 'author' : 'month') : shard.length;
    if (top !== INDEX_DIR || !isStatus(status) || (shape !== 1 && shape !== 'author' && shape !== 3)) continue;
    for (const e of parseShard(text, status)) entries.push(e);
  }
  return entries;
}

/**
 * The index texts of each tree (path → text), to tell which index files a merge changes. A
 * shard both trees hold unchanged (most of them, on a fast-forward) is read once.
 */
export async function readIndexTexts(batch: StoreObjectReader, listings: readonly TreeListing[]): Promise<Array<Map<string, string>>> {
  const paths = listings.map((l) => [...l.keys()].filter((p) => MEMORY_LAYOUT.isDerived(p)));
  const texts = await readBlobs(batch, listings.flatMap((l, i) => paths[i]!.map((p) => l.get(p)!.oid)));
  return listings.map((l, i) => new Map(paths[i]!.map((p) => [p, texts.get(l.get(p)!.oid) ?? ''])));
}

async function summarizeFromDocuments(batch: StoreObjectReader, capsules: readonly CapsuleSource[]): Promise<IndexEntry[]> {
  const texts = await readBlobs(batch, capsules.flatMap((c) => (c.oid === null ? [] : [c.oid])));
  return capsules.map((c) => {
    // The same reading as the store's own rebuild (collectEntries), so a rebuild after sync finds nothing to change.
    const fm = parseCapsule(c.oid === null ? '' : (texts.get(c.oid) ?? '')).doc?.frontmatter ?? {};
    return summarizeCapsule(fm, { id: c.id, dir: c.dir }, c.events);
  });
}

/** Blob texts by id, pipelined through one `cat-file --batch`; a missing blob is absent. */
export async function readBlobs(batch: StoreObjectReader, oids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(oids)];
  const texts = await Promise.all(unique.map((oid) => batch.readText(oid)));
  const out = new Map<string, string>();
  unique.forEach((oid, i) => {
    const t = texts[i];
    if (t !== null && t !== undefined) out.set(oid, t);
  });
  return out;
}
