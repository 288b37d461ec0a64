import type { TreeFile, TreeListing } from './merge-listings';

// A remote is one more writer, not an authority (DESIGN §3). A fast-forward takes its tree as it
// is, so it is taken only when that tree is exactly what merging it would give; otherwise sync
// merges (which keeps every local file, rebuilds the index from the documents and events, and
// leaves out paths git's fsck refuses) and says here what it did not take.

/** Why a sync did not take part of the remote's tree as it is. */
export type SyncRefusalReason = 'drops-local-files' | 'older-document' | 'index-disagrees' | 'unsafe-path';

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
  'index-disagrees': "index files the remote's documents and events do not produce (rebuilt)",
  'unsafe-path': 'paths git fsck refuses (left out)',
};

/**
 * True when git's fsck accepts every component of `path` (a `/`-separated tree path): no empty,
 * `.` or `..` component, and no `.git` in any spelling a checkout could read as one (any case,
 * trailing dots or spaces, the 8.3 name `git~1`). Hosts that check pushed objects refuse a tree
 * holding one, so a memory branch that carried it could never be pushed there again.
 */
export function isFsckSafePath(path: string): boolean {
  for (const part of path.split('/')) {
    if (part === '' || part === '.' || part === '..') return false;
    const bare = part.toLowerCase().replace(/[. ]+$/, '');
    if (bare === '.git' || bare === 'git~1') return false;
  }
  return true;
}

/** A listing without the paths fsck refuses, and those paths. */
export function withoutUnsafePaths(listing: TreeListing): { safe: Map<string, TreeFile>; unsafe: string[] } {
  const safe = new Map<string, TreeFile>();
  const unsafe: string[] = [];
  for (const [path, file] of listing) {
    if (isFsckSafePath(path)) safe.set(path, file);
    else unsafe.push(path);
  }
  return { safe, unsafe };
}

/**
 * What the merge of `ours` and `theirs` kept or rebuilt where `theirs`, taken as it is, would
 * differ: local source files it lacks, documents it holds in an older version, index files that
 * are not the rebuild's, paths fsck refuses. Empty means a fast-forward to `theirs` is exactly
 * the merge. `isDerived` names the index's paths.
 */
export function refusalsOf(input: {
  ours: TreeListing;
  theirs: TreeListing;
  merged: { files: ReadonlyMap<string, TreeFile>; index: ReadonlyMap<string, string>; resolutions: ReadonlyArray<{ path: string; kept: 'ours' | 'theirs' }> };
  theirsIndex: ReadonlyMap<string, string>;
  unsafe: readonly string[];
  isDerived: (path: string) => boolean;
}): SyncRefusal[] {
  const { ours, theirs, merged, theirsIndex, isDerived } = input;
  const dropped = [...ours.keys()].filter((p) => !isDerived(p) && !theirs.has(p) && merged.files.has(p));
  const older = merged.resolutions.filter((r) => r.kept === 'ours').map((r) => r.path);
  const indexPaths = new Set([...merged.index.keys(), ...theirsIndex.keys()]);
  const disagreeing = [...indexPaths].filter((p) => merged.index.get(p) !== theirsIndex.get(p));
  const out: SyncRefusal[] = [];
  const add = (reason: SyncRefusalReason, paths: readonly string[]) => {
    if (paths.length > 0) out.push({ reason, count: paths.length, paths: [...paths].sort().slice(0, MAX_NAMED) });
  };
  add('drops-local-files', dropped);
  add('older-document', older);
  add('index-disagrees', disagreeing);
  add('unsafe-path', input.unsafe);
  return out;
}
