import { parseCreatedAt } from '../capsule/created-at';
import { STATUSES } from '../capsule/types';
import { CapsuleError } from '../errors/capsule-error';
import { fallbackSortKey, summarizeCapsule } from './capsule-summary';
import { DAY_NAME, FORMAT_PATH, FORMAT_TEXT, FORMAT_VERSION, RETIRED_DIR, YEAR_NAME, capsuleDir, documentIn, isSafeId } from './memory-format';
import type { MemoryTree } from './memory-tree';
import { COUNTS_PATH, INDEX_DIR, parseShard } from './selection-index';
import type { IndexEntry } from './types';

/**
 * What bringing a tree to the current layout takes, written in the same commit as the
 * operation that finds it needed: folders to delete, subtrees moved whole (no blob is read or
 * rewritten), the new `FORMAT`, and the index entries of every capsule where it will be.
 */
export interface LayoutUpgrade {
  /** The version the tree declared (null: none; the deterministic root declares 1). */
  from: number | null;
  deleteDirs: string[];
  objects: Map<string, { mode: string; oid: string }>;
  files: Map<string, string>;
  /** Where each capsule's files are before the move (id → directory), for the operation riding on the upgrade. */
  sources: Map<string, string>;
  /** Every capsule's index entry at its new place: the old index converted line by line, documents read only for what it lacks. */
  entries: IndexEntry[];
}

/**
 * Refuses a tree whose FORMAT declares a newer layout than this code knows (MEMORY_FORMAT_NEWER):
 * writing into it could scatter capsules where a newer reader never looks.
 */
export function checkFormatVersion(ref: string, version: number | null): void {
  if (version !== null && version > FORMAT_VERSION) {
    throw new CapsuleError('MEMORY_FORMAT_NEWER', `${ref} uses memory layout ${version}, newer than this git-capsule (layout ${FORMAT_VERSION}); upgrade git-capsule on this machine, then try again`, { ref, version, known: FORMAT_VERSION });
  }
}

/**
 * The upgrade of the tree at `tip` to the current layout, or null when it already declares it.
 * Format 1 kept a capsule under the month of its created_at, format 2 under `<yyyy>/<mm>/<dd>` of
 * its id's time; format 3 keeps it under one `<yyyy-mm-dd>` folder of that day, so each directory
 * is moved whole to the place its id names, and format 2's tombstones (`retired/<yyyy>/<mm>/<dd>/<id>`)
 * move to `retired/<yyyy-mm-dd>/<id>`. When one id sits in
 * two places (an old and a new writer on one branch), the one already in place is kept, and the
 * other's status events are copied beside it: statuses only move forward, so none is lost.
 * Cheap enough for a hook on a large branch: tree reads, the old index's shards, and documents
 * only for capsules the old index does not describe. Throws MEMORY_FORMAT_NEWER.
 */
export async function planLayoutUpgrade(tree: MemoryTree, tip: string | null): Promise<LayoutUpgrade | null> {
  const from = tip === null ? null : await tree.formatVersion(tip);
  checkFormatVersion(tree.ref, from);
  if (from === FORMAT_VERSION) return null;
  const plan: LayoutUpgrade = { from, deleteDirs: [], objects: new Map(), files: new Map([[FORMAT_PATH, FORMAT_TEXT]]), sources: new Map(), entries: [] };
  if (tip === null) return plan;
  const byId = new Map<string, Array<{ dir: string; oid: string }>>();
  for (const d of await tree.capsuleDirs(tip)) byId.set(d.id, [...(byId.get(d.id) ?? []), { dir: d.dir, oid: d.oid }]);
  const twice: string[] = [];
  for (const [id, places] of byId) {
    const target = capsuleDir(id);
    const sorted = [...places].sort((a, b) => (a.dir === target ? -1 : b.dir === target ? 1 : a.dir < b.dir ? -1 : 1));
    const [kept, ...others] = sorted as [{ dir: string; oid: string }, ...Array<{ dir: string; oid: string }>];
    plan.sources.set(id, kept.dir);
    if (kept.dir !== target) {
      plan.deleteDirs.push(kept.dir);
      plan.objects.set(target, { mode: '040000', oid: kept.oid });
    }
    if (others.length > 0) twice.push(id);
    for (const other of others) {
      plan.deleteDirs.push(other.dir);
      for (const e of (await tree.tree(tip, `${other.dir}/status`)) ?? []) {
        if (!e.isTree) plan.objects.set(`${target}/status/${e.name}`, { mode: e.mode === '100755' ? '100755' : '100644', oid: e.oid });
      }
    }
  }
  await moveTombstones(tree, tip, plan);
  plan.entries = await entriesAfterMove(tree, tip, byId, new Set(twice));
  return plan;
}

/** Format 2's tombstones `retired/<yyyy>/<mm>/<dd>/<id>`, moved blob by blob to `retired/<yyyy-mm-dd>/<id>` (nothing is read). */
async function moveTombstones(tree: MemoryTree, tip: string, plan: LayoutUpgrade): Promise<void> {
  const years = (await tree.subtrees(tip, RETIRED_DIR)).filter((y) => YEAR_NAME.test(y));
  const months = (await Promise.all(years.map(async (y) => (await tree.subtrees(tip, `${RETIRED_DIR}/${y}`)).map((m) => `${y}/${m}`)))).flat();
  const days = (await Promise.all(months.map(async (m) => (await tree.subtrees(tip, `${RETIRED_DIR}/${m}`)).map((d) => `${m}/${d}`)))).flat();
  const stones = await Promise.all(days.map((d) => tree.tree(tip, `${RETIRED_DIR}/${d}`)));
  days.forEach((d, i) => {
    const day = d.replace(/\//g, '-');
    if (!DAY_NAME.test(day)) return;
    for (const e of stones[i] ?? []) if (!e.isTree && isSafeId(e.name)) plan.objects.set(`${RETIRED_DIR}/${day}/${e.name}`, { mode: '100644', oid: e.oid });
  });
  for (const y of years) plan.deleteDirs.push(`${RETIRED_DIR}/${y}`);
}

/**
 * The index entries after the move: the old index's lines (formats 1 and 2) carry every field an
 * entry needs (only the path changes, and it follows from the id), so they are converted; a capsule the old
 * index lacks, or held twice, is summarised from its documents.
 */
async function entriesAfterMove(tree: MemoryTree, tip: string, byId: Map<string, Array<{ dir: string }>>, twice: Set<string>): Promise<IndexEntry[]> {
  const old = await readOlderIndex(tree, tip);
  const entries: IndexEntry[] = [];
  const unread: string[] = [];
  for (const id of [...byId.keys()].sort()) {
    const line = old.get(id);
    if (line === undefined || twice.has(id)) unread.push(id);
    else entries.push(parseCreatedAt(line.createdAt).ok ? line : { ...line, sortKey: fallbackSortKey(capsuleDir(id)) });
  }
  const { parseCapsule } = await import('../capsule/parse');
  entries.push(...(await Promise.all(unread.map(async (id) => {
    const places = byId.get(id)!.map((p) => p.dir);
    const [texts, events] = await Promise.all([Promise.all(places.map((d) => tree.text(tip, documentIn(d)))), Promise.all(places.map((d) => tree.events(tip, d)))]);
    const kept = places.indexOf(capsuleDir(id)) >= 0 ? places.indexOf(capsuleDir(id)) : 0;
    const fm = texts[kept] === null ? {} : (parseCapsule(texts[kept]!).doc?.frontmatter ?? {});
    return summarizeCapsule(fm, { id, dir: capsuleDir(id) }, events.flat());
  }))));
  return entries;
}

/**
 * An older layout's index by id: format 1's `index/<status>/<yyyy>/<mm>` and format 2's
 * `index/<status>/<yyyy>/<mm>/<dd>`, every shard below a status folder; empty unless its counts
 * file says format 1 or 2.
 */
async function readOlderIndex(tree: MemoryTree, tip: string): Promise<Map<string, IndexEntry>> {
  const counts = await tree.text(tip, COUNTS_PATH);
  const byId = new Map<string, IndexEntry>();
  if (counts === null || !/"format":[12][,}]/.test(counts)) return byId;
  const walk = async (dir: string, status: (typeof STATUSES)[number], depth: number): Promise<void> => {
    const entries = (await tree.tree(tip, dir)) ?? [];
    const texts = await Promise.all(entries.map((e) => (e.isTree ? (depth < 2 ? walk(`${dir}/${e.name}`, status, depth + 1) : null) : tree.text(tip, `${dir}/${e.name}`))));
    for (const text of texts) if (typeof text === 'string') for (const e of parseShard(text, status)) byId.set(e.id, e);
  };
  await Promise.all(STATUSES.map((status) => walk(`${INDEX_DIR}/${status}`, status, 0)));
  return byId;
}
