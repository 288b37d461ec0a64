import { FORMAT_PATH, capsuleDir, isSafeId, retiredPath } from '../store/memory-format';
import { TOMBSTONE, V1_CAPSULE_FILE, V2_CAPSULE_FILE, V3_CAPSULE_FILE } from '../store/layout-paths';
import type { TreeFile, TreeListing } from './merge-listings';

/**
 * A tree listing with every capsule file where the current layout puts it (the day of its id's
 * time) and without `FORMAT`, so a side of an older layout (a branch pushed by an older
 * git-capsule) merges path by path with a current one. When one id sits in two places in one
 * tree, the copy already in place wins per path, else the first in path order: deterministic,
 * so both machines of a merge agree. `moved` counts files that changed place.
 */
export function canonicalListing(files: TreeListing): { files: Map<string, TreeFile>; moved: number } {
  const out = new Map<string, TreeFile>();
  const placedFrom = new Map<string, string>();
  let moved = 0;
  for (const path of [...files.keys()].sort()) {
    if (path === FORMAT_PATH) continue;
    const target = canonicalPath(path);
    const file = files.get(path)!;
    const earlier = placedFrom.get(target);
    if (earlier !== undefined && (earlier === target || path !== target)) continue;
    out.set(target, file);
    placedFrom.set(target, path);
    if (target !== path) moved += 1;
  }
  return { files: out, moved };
}

/** Where the current layout keeps the file at `path` (itself for anything but a capsule file or tombstone of a known shape). */
export function canonicalPath(path: string): string {
  const stone = TOMBSTONE.exec(path);
  if (stone !== null) return isSafeId(stone[1]) ? retiredPath(stone[1]) : path;
  const m = V3_CAPSULE_FILE.exec(path) ?? V2_CAPSULE_FILE.exec(path) ?? V1_CAPSULE_FILE.exec(path);
  if (m === null || !isSafeId(m[2])) return path;
  return `${capsuleDir(m[2]!)}/${m[3]}`;
}
