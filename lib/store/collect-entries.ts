import { summarizeCapsule } from './capsule-summary';
import { capsulePath } from './memory-format';
import type { MemoryTree } from './memory-tree';
import type { IndexEntry } from './types';

/**
 * Index entries recomputed from the capsules themselves (every document and status folder,
 * pipelined through one cat-file): the source of truth the derived index is checked against.
 */
export async function collectEntries(tree: MemoryTree, rev: string): Promise<IndexEntry[]> {
  const { parseCapsule } = await import('../capsule/parse');
  const dirs = await tree.capsuleDirs(rev);
  return Promise.all(
    dirs.map(async ({ id, month }) => {
      const [text, events] = await Promise.all([tree.text(rev, capsulePath(id, month)), tree.events(rev, id, month)]);
      const fm = text === null ? {} : (parseCapsule(text).doc?.frontmatter ?? {});
      return summarizeCapsule(fm, { id, month }, events);
    }),
  );
}
