import { parseCapsule } from '../capsule/parse';
import type { MemoryTree } from './memory-tree';

/** How many foreign revisions of one capsule are read and named; the rest are counted. */
export const MAX_FOREIGN_NAMED = 5;

/** One remote revision of a capsule this clone sealed, set aside by sync: where it is and who it says wrote it. */
export interface ForeignRevision {
  path: string;
  author?: string;
  machine?: string;
}

/**
 * The foreign revisions sync set aside beside the capsule document at `documentPath`
 * (`…/<id>/foreign/<blob id>.md`, lib/sync/merge-listings.ts) at the tip, with the author and
 * machine each claims: the resume names them in its ledger. One tree read when there are none.
 */
export async function readForeignRevisions(tree: MemoryTree, documentPath: string): Promise<{ named: ForeignRevision[]; total: number }> {
  const tip = await tree.tip();
  if (tip === null) return { named: [], total: 0 };
  const dir = `${documentPath.slice(0, documentPath.lastIndexOf('/'))}/foreign`;
  const entries = ((await tree.tree(tip, dir)) ?? []).filter((e) => !e.isTree);
  const named = await Promise.all(entries.slice(0, MAX_FOREIGN_NAMED).map(async (e) => {
    const fm = parseCapsule((await tree.blobText(e.oid)) ?? '').doc?.frontmatter ?? {};
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const author = str(fm.author);
    const machine = str(fm.machine);
    return { path: `${dir}/${e.name}`, ...(author === undefined ? {} : { author }), ...(machine === undefined ? {} : { machine }) };
  }));
  return { named, total: entries.length };
}
