import { parseCreatedAt } from '../capsule/created-at';
import { parseFrontmatterYaml, splitFrontmatter } from '../capsule/frontmatter';
import { CapsuleError } from '../errors/capsule-error';

/** One file of a tree listing (`git ls-tree -r`): its mode and blob id. */
export interface TreeFile {
  mode: string;
  oid: string;
}

/** A whole tree as path → file (blobs only, paths relative to the tree root). */
export type TreeListing = ReadonlyMap<string, TreeFile>;

/** How the merge reads the memory tree's layout; the store owns the layout and supplies this. */
export interface MergeLayout {
  /** True for paths of the derived index: dropped from both sides, then rebuilt from the result. */
  isDerived(path: string): boolean;
  /** True for a capsule document (`…/<id>/capsule.md`): two versions resolve by `updated_at`. */
  isDocument(path: string): boolean;
  /** True for paths both sides must agree on (the format version): a difference stops the merge. */
  mustAgree(path: string): boolean;
}

/** One path both sides hold with different content, and the side whose version the merge kept. */
export interface MergeResolution {
  path: string;
  kept: 'ours' | 'theirs';
  ours: string;
  theirs: string;
  /**
   * Set when one version carried this clone's seal and the other did not: the sealed one kept
   * its place and the other was set aside at this path (`…/<id>/foreign/<blob id>.md`), never selected.
   */
  foreign?: string;
}

/** Where a revision of the capsule document at `documentPath` that this clone did not seal is kept: beside it, named by its blob id. */
export function foreignRevisionPath(documentPath: string, oid: string): string {
  return `${documentPath.slice(0, documentPath.lastIndexOf('/'))}/foreign/${oid}.md`;
}

/** The union of the source files of both sides (derived index excluded), and how conflicts resolved. */
export interface MergedListing {
  files: Map<string, TreeFile>;
  resolutions: MergeResolution[];
}

/**
 * The document paths both sides hold with different blobs: the only blobs the merge must read.
 * Sorted, so callers read them in a stable order.
 */
export function findDocumentConflicts(ours: TreeListing, theirs: TreeListing, layout: MergeLayout): string[] {
  const paths: string[] = [];
  for (const [path, mine] of ours) {
    const other = theirs.get(path);
    if (other && other.oid !== mine.oid && layout.isDocument(path) && !layout.isDerived(path)) paths.push(path);
  }
  return paths.sort();
}

/**
 * Merges two memory trees as a union: every source file of either side survives; status events
 * never collide (their names are unique); two versions of one capsule document keep the newer
 * `updated_at` (else `created_at`), then the larger blob id; any other differing file keeps the
 * larger blob id. With `sealedHere`, a document version this clone sealed wins over one it did
 * not, however dated, and the other is kept aside at foreignRevisionPath (a remote revision of a
 * capsule we wrote never replaces ours silently). The result does not depend on which side is
 * `ours`. `texts` maps blob id → text for every blob of `findDocumentConflicts`. Throws SYNC_FORMAT_MISMATCH when a
 * `mustAgree` path differs, SYNC_BLOB_MISSING when a needed text was not supplied.
 *
 * @example const { files } = mergeListings({ ours, theirs, layout, texts });
 */
export function mergeListings(input: { ours: TreeListing; theirs: TreeListing; layout: MergeLayout; texts: ReadonlyMap<string, string>; sealedHere?: (text: string) => boolean }): MergedListing {
  const { ours, theirs, layout, texts } = input;
  const files = new Map<string, TreeFile>();
  const resolutions: MergeResolution[] = [];
  const paths = [...new Set([...ours.keys(), ...theirs.keys()])].sort();
  for (const path of paths) {
    if (layout.isDerived(path)) continue;
    const mine = ours.get(path);
    const other = theirs.get(path);
    if (!mine || !other || (mine.oid === other.oid && mine.mode === other.mode)) {
      files.set(path, (mine ?? other)!);
      continue;
    }
    if (layout.mustAgree(path)) {
      throw new CapsuleError(
        'SYNC_FORMAT_MISMATCH',
        `cannot merge memory branches: ${path} differs (local blob ${mine.oid}, remote blob ${other.oid}); upgrade git-capsule on the machine with the older format, then sync again`,
        { path, ours: mine.oid, theirs: other.oid },
      );
    }
    const sealed = layout.isDocument(path) && input.sealedHere ? sealedSide(mine, other, texts, input.sealedHere) : null;
    const keepOurs = sealed !== null ? sealed === 'ours' : layout.isDocument(path) ? compareDocuments(mine, other, texts) > 0 : compareFiles(mine, other) > 0;
    files.set(path, keepOurs ? mine : other);
    const aside = sealed === null ? null : keepOurs ? other : mine;
    if (aside !== null) files.set(foreignRevisionPath(path, aside.oid), { mode: '100644', oid: aside.oid });
    resolutions.push({ path, kept: keepOurs ? 'ours' : 'theirs', ours: mine.oid, theirs: other.oid, ...(aside === null ? {} : { foreign: foreignRevisionPath(path, aside.oid) }) });
  }
  return { files, resolutions };
}

/** The side whose version alone carries this clone's seal, or null when both or neither do (then dates decide). */
function sealedSide(a: TreeFile, b: TreeFile, texts: ReadonlyMap<string, string>, sealedHere: (text: string) => boolean): 'ours' | 'theirs' | null {
  const [sa, sb] = [a, b].map((f) => {
    const text = texts.get(f.oid);
    if (text === undefined) throw new CapsuleError('SYNC_BLOB_MISSING', `merge needs the text of blob ${f.oid} but it was not read; this is a bug in the caller of mergeListings`, { oid: f.oid });
    return sealedHere(text);
  });
  return sa === sb ? null : sa ? 'ours' : 'theirs';
}

/** Positive when `a` wins: newer `updated_at` (else `created_at`), then the larger blob id. */
function compareDocuments(a: TreeFile, b: TreeFile, texts: ReadonlyMap<string, string>): number {
  const byTime = documentTime(a.oid, texts) - documentTime(b.oid, texts);
  return byTime !== 0 ? byTime : compareFiles(a, b);
}

function compareFiles(a: TreeFile, b: TreeFile): number {
  if (a.oid !== b.oid) return a.oid > b.oid ? 1 : -1;
  return a.mode > b.mode ? 1 : a.mode < b.mode ? -1 : 0;
}

/**
 * The instant a document version was last written. An unreadable stamp counts as the oldest
 * possible so a valid version always beats a damaged one, and the tie still breaks by blob id.
 */
export function documentTime(oid: string, texts: ReadonlyMap<string, string>): number {
  const text = texts.get(oid);
  if (text === undefined) {
    throw new CapsuleError('SYNC_BLOB_MISSING', `merge needs the text of blob ${oid} but it was not read; this is a bug in the caller of mergeListings`, { oid });
  }
  const { yaml } = splitFrontmatter(text);
  if (yaml === null) return Number.NEGATIVE_INFINITY;
  const { frontmatter } = parseFrontmatterYaml(yaml);
  if (!frontmatter) return Number.NEGATIVE_INFINITY;
  for (const field of ['updated_at', 'created_at']) {
    if (frontmatter[field] === undefined) continue;
    const parsed = parseCreatedAt(frontmatter[field], field);
    return parsed.ok ? parsed.epochMs : Number.NEGATIVE_INFINITY;
  }
  return Number.NEGATIVE_INFINITY;
}
