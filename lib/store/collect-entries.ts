import { summarizeCapsule } from './capsule-summary';
import { capsuleDir, documentIn } from './memory-format';
import type { MemoryTree } from './memory-tree';
import { maxStatus } from './status-lattice';
import type { IndexEntry } from './types';

/**
 * Index entries recomputed from the capsules themselves (every document and status folder,
 * pipelined through one cat-file): the source of truth the derived index is checked against.
 * `inPlace` describes each capsule where the current layout puts its id, one entry per id, for
 * a rebuild riding on the commit that moves an older layout's folders there (see
 * planLayoutUpgrade: of an id found twice, the copy already in place is kept, with the status
 * of both).
 */
export async function collectEntries(tree: MemoryTree, rev: string, opts: { inPlace?: boolean } = {}): Promise<IndexEntry[]> {
  const { parseCapsule } = await import('../capsule/parse');
  const dirs = await tree.capsuleDirs(rev);
  const entries = await Promise.all(
    dirs.map(async ({ id, dir }) => {
      const [text, events] = await Promise.all([tree.text(rev, documentIn(dir)), tree.events(rev, dir)]);
      const fm = text === null ? {} : (parseCapsule(text).doc?.frontmatter ?? {});
      return summarizeCapsule(fm, { id, dir: opts.inPlace ? capsuleDir(id) : dir }, events);
    }),
  );
  if (!opts.inPlace) return entries;
  const byId = new Map<string, { entry: IndexEntry; kept: boolean }>();
  entries.forEach((entry, i) => {
    const kept = dirs[i]!.dir === capsuleDir(entry.id);
    const seen = byId.get(entry.id);
    const status = seen ? maxStatus([seen.entry.status, entry.status]) : entry.status;
    byId.set(entry.id, seen && (seen.kept || !kept) ? { entry: { ...seen.entry, status }, kept: seen.kept } : { entry: { ...entry, status }, kept });
  });
  return [...byId.values()].map((v) => v.entry);
}
