import type { TreeFile, TreeListing } from './merge-listings';

// Hosts that check what is pushed to them (receive.fsckObjects, GitHub, GitLab) refuse a tree
// object holding one of these names, so a memory branch that once carried one could never be
// pushed there again: every later tree on that path is a new object holding the same entry.
// git itself never writes them; a collaborator's plumbing can, so sync leaves them out.

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

/** A listing without the paths fsck refuses, and those paths (sorted). */
export function withoutUnsafePaths(listing: TreeListing): { safe: Map<string, TreeFile>; unsafe: string[] } {
  const safe = new Map<string, TreeFile>();
  const unsafe: string[] = [];
  for (const [path, file] of listing) {
    if (isFsckSafePath(path)) safe.set(path, file);
    else unsafe.push(path);
  }
  return { safe, unsafe: unsafe.sort() };
}
