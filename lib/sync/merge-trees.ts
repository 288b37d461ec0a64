import { parseCapsule } from '../capsule/parse';
import type { CatFileBatch, ReadOptions } from '../git/cat-file-batch';
import { DOCUMENT_READ } from '../store/memory-tree';
import { summarizeCapsule } from '../store/capsule-summary';
import type { GitRunner } from '../git/git-runner';
import { FORMAT_PATH } from '../store/memory-format';
import { buildIndexFiles, INDEX_DIR, COUNTS_PATH, parseShard } from '../store/selection-index';
import { isStatus } from '../store/status-lattice';
import { capsuleSources, reuseIndexEntries, type CapsuleSource, type IndexSide } from './index-reuse';
import { withoutUnsafePaths } from './incoming-check';
import { findDocumentConflicts, mergeListings, type MergeLayout, type MergeResolution, type TreeFile, type TreeListing } from './merge-listings';
import type { IndexEntry } from '../store/types';

/** The memory branch layout as the merge sees it: `index/` is derived, `FORMAT` must agree. */
export const MEMORY_LAYOUT: MergeLayout = {
  isDerived: (path) => path.startsWith(`${INDEX_DIR}/`),
  isDocument: (path) => path.startsWith('capsules/') && path.endsWith('/capsule.md'),
  mustAgree: (path) => path === FORMAT_PATH,
};

/** Every blob of a commit's tree (`ls-tree -r -z`), path → mode and blob id. Throws GIT_FAILED. */
export async function listTree(git: GitRunner, commit: string): Promise<Map<string, TreeFile>> {
  const out = await git.run(['ls-tree', '-r', '-z', '--full-tree', commit]);
  const files = new Map<string, TreeFile>();
  for (const record of out.stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', type, oid = ''] = record.slice(0, tab).split(' ');
    if (type === 'blob') files.set(record.slice(tab + 1), { mode, oid });
  }
  return files;
}

/** A merged memory tree: its source files, the rebuilt index files (path → text), how conflicts went. */
export interface MergedTree {
  files: Map<string, TreeFile>;
  index: Map<string, string>;
  resolutions: MergeResolution[];
  /** Capsules whose index entry had to be computed from the document (the rest were reused). */
  summarized: number;
  /** Each side's own index files (path → text), to write only the index files the merge changes. */
  sideIndexes: [Map<string, string>, Map<string, string>];
  /** Paths of either side that git fsck refuses, left out of the merge (lib/sync/incoming-check.ts). */
  unsafe: string[];
}

/**
 * Merges two memory trees (see `mergeListings`) and rebuilds the derived index from the result,
 * reading only the conflicting documents, the index files of both sides, and the documents no
 * side's index describes exactly. Paths git fsck refuses are left out, so the merge never re-pushes
 * them. Throws SYNC_FORMAT_MISMATCH, GIT_FAILED.
 */
export async function mergeTrees(batch: CatFileBatch, oursListed: TreeListing, theirsListed: TreeListing): Promise<MergedTree> {
  const [{ safe: ours, unsafe: oursUnsafe }, { safe: theirs, unsafe: theirsUnsafe }] = [withoutUnsafePaths(oursListed), withoutUnsafePaths(theirsListed)];
  const texts = await readBlobs(batch, findDocumentConflicts(ours, theirs, MEMORY_LAYOUT).flatMap((p) => [ours.get(p)!.oid, theirs.get(p)!.oid]), DOCUMENT_READ);
  const { files, resolutions } = mergeListings({ ours, theirs, layout: MEMORY_LAYOUT, texts });
  const capsules = capsuleSources(files);
  const [oursIndex, theirsIndex] = await Promise.all([readIndexTexts(batch, ours), readIndexTexts(batch, theirs)]);
  const sides: IndexSide[] = [
    { listing: ours, entries: indexEntriesOf(oursIndex) },
    { listing: theirs, entries: indexEntriesOf(theirsIndex) },
  ];
  const { entries, unread } = reuseIndexEntries(capsules, sides);
  entries.push(...(await summarizeFromDocuments(batch, unread)));
  const unsafe = [...new Set([...oursUnsafe, ...theirsUnsafe])].sort();
  return { files, index: buildIndexFiles(entries), resolutions, summarized: unread.length, sideIndexes: [oursIndex, theirsIndex], unsafe };
}

/** The entries an index holds (its shards; damaged lines are skipped, the counts file ignored). */
export function indexEntriesOf(index: ReadonlyMap<string, string>): IndexEntry[] {
  const entries: IndexEntry[] = [];
  for (const [path, text] of index) {
    if (path === COUNTS_PATH) continue;
    const [, status, yyyy, mm] = path.split('/');
    if (!isStatus(status) || !yyyy || !mm) continue;
    for (const e of parseShard(text, status, `${yyyy}/${mm}`)) entries.push(e);
  }
  return entries;
}

/** The index texts of a tree (path → text), to tell which index files a merge changes. */
export async function readIndexTexts(batch: CatFileBatch, listing: TreeListing): Promise<Map<string, string>> {
  const paths = [...listing.keys()].filter((p) => MEMORY_LAYOUT.isDerived(p));
  const texts = await readBlobs(batch, paths.map((p) => listing.get(p)!.oid));
  return new Map(paths.map((p) => [p, texts.get(listing.get(p)!.oid) ?? '']));
}

async function summarizeFromDocuments(batch: CatFileBatch, capsules: readonly CapsuleSource[]): Promise<IndexEntry[]> {
  const texts = await readBlobs(batch, capsules.flatMap((c) => (c.oid === null ? [] : [c.oid])), DOCUMENT_READ);
  return capsules.map((c) => {
    // The same reading as the store's own rebuild (collectEntries), so a rebuild after sync finds nothing to change.
    const fm = parseCapsule(c.oid === null ? '' : (texts.get(c.oid) ?? '')).doc?.frontmatter ?? {};
    return summarizeCapsule(fm, { id: c.id, month: c.month }, c.events);
  });
}

/** Blob texts by id, pipelined through one `cat-file --batch`, each within `bounds`; a missing blob is absent. */
export async function readBlobs(batch: CatFileBatch, oids: readonly string[], bounds: ReadOptions = {}): Promise<Map<string, string>> {
  const unique = [...new Set(oids)];
  const texts = await Promise.all(unique.map((oid) => batch.readText(oid, bounds)));
  const out = new Map<string, string>();
  unique.forEach((oid, i) => {
    const t = texts[i];
    if (t !== null && t !== undefined) out.set(oid, t);
  });
  return out;
}
