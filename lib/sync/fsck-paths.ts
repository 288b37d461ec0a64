import type { TreeFile, TreeListing } from './merge-listings';

// Hosts that check what is pushed to them (receive.fsckObjects, GitHub, GitLab) refuse a tree
// object holding one of these names, so a memory branch that once carried one could never be
// pushed there again: every later tree on that path is a new object holding the same entry.
// git itself never writes them; a collaborator's plumbing can, so sync leaves them out.
//
// The same holds for entries no git-capsule ever writes: a symbolic link or a gitlink (a
// submodule's commit) has no place in the capsule layout (only regular files), and a path
// nested thousands of folders deep makes every git that enforces core.maxTreeDepth (4096 since
// git 2.44, less on some hosts) refuse the tree. The layout's deepest path is six components.

/** Why an entry of a memory tree is left out of what sync takes in or publishes. */
export type LeftOutKind = 'unsafe-path' | 'symlink' | 'gitlink' | 'too-deep';

/** One entry left out: its path (for `too-deep`, the folder at the depth limit, dropped whole) and why. */
export interface LeftOut {
  path: string;
  kind: LeftOutKind;
}

/** More components than this and a path is outside every layout git-capsule wrote (six at most), and far under git's own limit. */
export const MAX_LAYOUT_DEPTH = 32;

const SYMLINK_MODE = '120000';
const GITLINK_MODE = '160000';

/**
 * True when git's fsck accepts every component of `path` (a `/`-separated tree path): no empty,
 * `.` or `..` component, and no `.git` in any spelling a checkout could read as one: any case,
 * with the code points HFS+ ignores, trailing dots or spaces, an NTFS stream (`.git::$INDEX_ALLOCATION`)
 * or a backslash-separated part, the 8.3 name `git~1`.
 */
export function isFsckSafePath(path: string): boolean {
  for (const part of path.split('/')) {
    if (part === '' || part === '.' || part === '..') return false;
    for (const piece of part.split('\\')) {
      const bare = piece.replace(HFS_IGNORED, '').toLowerCase().replace(/:.*$/s, '').replace(/[. ]+$/, '');
      if (bare === '.git' || bare === 'git~1') return false;
    }
  }
  return true;
}

// The code points HFS+ drops when it compares names (git's is_hfs_dotgit).
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** Why the entry at `path` with git file `mode` is left out, or null when it belongs in a memory tree. */
export function leftOutOf(path: string, mode: string): LeftOut | null {
  const parts = path.split('/');
  if (parts.length > MAX_LAYOUT_DEPTH) return { path: parts.slice(0, MAX_LAYOUT_DEPTH).join('/'), kind: 'too-deep' };
  if (!isFsckSafePath(path)) return { path, kind: 'unsafe-path' };
  if (mode === SYMLINK_MODE) return { path, kind: 'symlink' };
  if (mode === GITLINK_MODE) return { path, kind: 'gitlink' };
  return null;
}

/** A listing without the entries sync leaves out (see leftOutOf), and those entries (one per path, sorted by path). */
export function withoutUnsafePaths(listing: TreeListing): { safe: Map<string, TreeFile>; unsafe: LeftOut[] } {
  const safe = new Map<string, TreeFile>();
  const unsafe: LeftOut[] = [];
  for (const [path, file] of listing) {
    const out = leftOutOf(path, file.mode);
    if (out === null) safe.set(path, file);
    else unsafe.push(out);
  }
  return { safe, unsafe: uniqueLeftOut(unsafe) };
}

/** One entry per path (a too-deep folder stands for every file under it), sorted by path. */
export function uniqueLeftOut(entries: readonly LeftOut[]): LeftOut[] {
  const byPath = new Map<string, LeftOut>();
  for (const e of entries) if (!byPath.has(e.path)) byPath.set(e.path, e);
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
