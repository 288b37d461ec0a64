import type { StoreObjectReader } from '../git/cat-file-batch';
import type { GitRunner } from '../git/git-runner';
import { canonicalListing } from './canonical-listing';
import type { LeftOut } from './fsck-paths';
import { listBoth, type Listings } from './local-moves';
import { buildMergeStream, laterCommitTime, writeScratchCommit } from './merge-commit';
import type { TreeListing } from './merge-listings';
import { MEMORY_LAYOUT, mergeTrees, type MergedTree } from './merge-trees';

// A remote is one more writer, not an authority (docs/sync.md "The remote is one more writer, not the truth"). A fast-forward takes its tree as it
// is, so it is taken only when that tree is exactly what merging it gives: the merge keeps every
// local capsule file, keeps the newer of two documents, rebuilds the index from the documents and
// their status events, and leaves out entries no memory tree holds (fsck-paths.ts). Anything else is refused here and
// repaired with one commit on top of the remote's tip.

/** Why a sync did not take part of the remote's tree as it is. */
export type SyncRefusalReason = 'drops-local-files' | 'older-document' | 'foreign-revision' | 'index-disagrees' | LeftOut['kind'];

/** One kind of thing a sync refused from the remote, with how many and the first few paths. */
export interface SyncRefusal {
  reason: SyncRefusalReason;
  count: number;
  /** At most MAX_NAMED paths, sorted. */
  paths: string[];
}

const MAX_NAMED = 5;

/** What each refusal means, for the sync report. */
export const REFUSAL_TEXT: Readonly<Record<SyncRefusalReason, string>> = {
  'drops-local-files': 'capsule files the remote deleted (kept)',
  'older-document': 'capsule documents the remote replaced with an older version (kept the newer)',
  'foreign-revision': 'revisions of capsules this clone sealed, not sealed here (kept ours; theirs set aside as foreign/<blob>.md beside it, never resumed)',
  'index-disagrees': "index files the remote's documents and status events do not give (rebuilt)",
  'unsafe-path': 'paths git fsck refuses (left out)',
  symlink: 'symbolic links, which the capsule layout never holds (left out)',
  gitlink: 'gitlinks (submodule entries), which the capsule layout never holds (left out)',
  'too-deep': 'folders nested deeper than the capsule layout, which hosts enforcing git\'s tree-depth limit refuse (left out whole)',
};

/** The refusal of `paths` for `reason`, or nothing when there are none. */
export function refusal(reason: SyncRefusalReason, paths: readonly string[]): SyncRefusal[] {
  return paths.length === 0 ? [] : [{ reason, count: paths.length, paths: [...paths].sort().slice(0, MAX_NAMED) }];
}

/** The refusals of the entries sync left out, one per kind, in a fixed order. */
export function leftOutRefusals(entries: readonly LeftOut[]): SyncRefusal[] {
  const kinds: Array<LeftOut['kind']> = ['unsafe-path', 'symlink', 'gitlink', 'too-deep'];
  return kinds.flatMap((kind) => refusal(kind, entries.filter((e) => e.kind === kind).map((e) => e.path)));
}

/**
 * Where `theirs`, taken as it is, differs from the merge of `ours` and `theirs`: capsule files of
 * ours it lacks (that the merge keeps: a retired capsule's are not), documents the merge kept
 * ours of (newer), index files that are not the rebuild's, entries sync leaves out. Empty means a
 * fast-forward to `theirs` loses and believes nothing the merge would not.
 */
export function refusalsOf(input: { ours: TreeListing; theirs: TreeListing; merged: MergedTree }): SyncRefusal[] {
  const { merged } = input;
  const ours = canonicalListing(input.ours).files;
  const theirs = canonicalListing(input.theirs).files;
  const dropped = [...ours.keys()].filter((p) => p.startsWith('capsules/') && !theirs.has(p) && merged.files.has(p));
  const older = merged.resolutions.filter((r) => r.kept === 'ours' && r.foreign === undefined && MEMORY_LAYOUT.isDocument(r.path)).map((r) => r.path);
  // Sealed here against a version that is not: whichever way the dates go, the remote's is set aside.
  const foreign = merged.resolutions.flatMap((r) => (r.foreign === undefined ? [] : [r.foreign]));
  const theirsIndex = merged.sideIndexes[1];
  const indexPaths = [...new Set([...merged.index.keys(), ...theirsIndex.keys()])].filter((p) => MEMORY_LAYOUT.isDerived(p));
  const disagreeing = indexPaths.filter((p) => merged.index.get(p) !== theirsIndex.get(p));
  return [...refusal('drops-local-files', dropped), ...refusal('older-document', older), ...refusal('foreign-revision', foreign), ...refusal('index-disagrees', disagreeing), ...leftOutRefusals(merged.unsafe)];
}

/** A remote tip checked before it is taken: what would be refused, and the merge that repairs it. */
export interface IncomingCheck {
  refused: SyncRefusal[];
  merged: MergedTree;
  /** The remote tip's own listing (the repair commit is written against it). */
  theirs: TreeListing;
}

/** Checks a remote tip the local tip (null: none yet) would fast-forward to (`listings`: both tips' own, when the caller has them). Throws SYNC_FORMAT_MISMATCH, GIT_FAILED. */
export async function checkIncoming(git: GitRunner, batch: StoreObjectReader, input: { local: string | null; remote: string; listings?: Listings | null; sealedHere?: (text: string) => boolean }): Promise<IncomingCheck> {
  const { ours, theirs } = input.listings ?? (await listBoth(git, input.local, input.remote));
  const merged = await mergeTrees(batch, ours, theirs, { sealedHere: input.sealedHere });
  return { refused: refusalsOf({ ours, theirs, merged }), merged, theirs };
}

/**
 * The repair of a refused remote tip: one deterministic commit on top of it (the fixed identity,
 * the tip's committer time, a fixed message) whose tree is the merge's, written on `scratch` (a
 * ref the caller owns; the memory ref moves to it in the caller's transaction). Two clones
 * repairing the same tip from the same state write the same commit. Throws GIT_FAILED.
 */
export async function writeRepair(git: GitRunner, check: IncomingCheck, input: { scratch: string; remote: string }): Promise<string> {
  const stream = buildMergeStream({
    ref: input.scratch,
    epochSeconds: await laterCommitTime(git, [input.remote]),
    merged: check.merged,
    parents: [{ commit: input.remote, listing: check.theirs, index: check.merged.sideIndexes[1] }],
  });
  return writeScratchCommit(git, stream, input.scratch);
}

/**
 * The commit the local ref moves to when it takes the remote tip `remote`: the tip itself when
 * nothing is refused, else its repair written on `scratch` (which the caller then drops). Throws
 * SYNC_FORMAT_MISMATCH, GIT_FAILED.
 */
export async function takeRemoteTip(git: GitRunner, batch: StoreObjectReader, input: { local: string | null; remote: string; scratch: string; listings?: Listings | null; sealedHere?: (text: string) => boolean }): Promise<{ commit: string; refused: SyncRefusal[] }> {
  const check = await checkIncoming(git, batch, input);
  if (check.refused.length === 0) return { commit: input.remote, refused: [] };
  return { commit: await writeRepair(git, check, input), refused: check.refused };
}
