import { STATUSES } from '../capsule/types';
import type { GitRunner } from '../git/git-runner';
import { FORMAT_PATH, RETIRED_DIR } from '../store/memory-format';
import { COUNTS_PATH, INDEX_DIR } from '../store/selection-index';

/**
 * The part of two memory trees a merge has to read: the day folders (`capsules/<day>`,
 * `retired/<day>`, `index/<status>/<day>`) whose subtrees differ between the tips. Every other
 * day is the same subtree on both sides, so the union holds it unchanged and its index files are
 * the ones both sides already have: a merge at a team's size reads the days the team touched
 * since the last sync, not the year the branch holds.
 */
export interface MergeScope {
  days: ReadonlySet<string>;
}

/** Past this many differing days (a clone back after months away) the whole trees are read: one listing is cheaper than that many pathspecs. */
const SCOPE_DAYS_MAX = 64;

/**
 * The days whose folders differ between `local` and `remote` (one `git diff-tree`, which skips
 * every subtree both tips share), or null when the merge must read both trees whole: anything
 * outside those folders differs (FORMAT, an older layout's folders, a file the layout does not
 * know), so nothing is scoped that the whole merge would treat differently. Throws GIT_FAILED.
 */
export async function mergeScope(git: GitRunner, local: string, remote: string): Promise<MergeScope | null> {
  const out = await git.run(['diff-tree', '-r', '-z', '--no-renames', '--name-only', remote, local]);
  const days = new Set<string>();
  for (const path of out.stdout.split('\0')) {
    if (path === '' || path === COUNTS_PATH) continue;
    const day = dayFolderOf(path);
    if (day === null) return null;
    days.add(day);
    if (days.size > SCOPE_DAYS_MAX) return null;
  }
  return { days };
}

/** The day of a path inside a day folder (`capsules/<day>/…`, `retired/<day>/<id>`, `index/<status>/<day>[/<author>]`), else null. */
export function dayFolderOf(path: string): string | null {
  const parts = path.split('/');
  if ((parts[0] === 'capsules' || parts[0] === RETIRED_DIR) && parts.length >= 3 && parts[1] !== '') return parts[1]!;
  if (parts[0] === INDEX_DIR && (STATUSES as readonly string[]).includes(parts[1] ?? '') && parts.length >= 3 && parts.length <= 4 && parts[2] !== '') return parts[2]!;
  return null;
}

/** The pathspecs of a scope: FORMAT, the counts file and each day's folders (ls-tree matches them as path prefixes). */
export function scopePaths(scope: MergeScope): string[] {
  const paths = [FORMAT_PATH, COUNTS_PATH];
  for (const day of [...scope.days].sort()) {
    paths.push(`capsules/${day}`, `${RETIRED_DIR}/${day}`, ...STATUSES.map((s) => `${INDEX_DIR}/${s}/${day}`));
  }
  return paths;
}
