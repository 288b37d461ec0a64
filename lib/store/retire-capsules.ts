import { utcSortKey } from '../capsule/created-at';
import { runImport } from '../git/fast-import';
import { withCasRetry } from './cas-retry';
import { commitLine } from './commit-message';
import { FORMAT_VERSION, RETIRED_DIR, capsuleDir, documentIn, retiredPath } from './memory-format';
import type { MemoryTree } from './memory-tree';
import type { Retention } from './retention';
import { indexDays, readDayEntries } from './day-shards';
import { COUNTS_PATH, dayOfSortKey, dayShardDir, encodeCounts, entryShardPath, parseCounts, replaceShardLine } from './selection-index';
import { maxStatus } from './status-lattice';
import type { StoreParts } from './store-parts';
import type { IndexEntry } from './types';

const DAY_MS = 86_400_000;
const FINISHED = ['resumed', 'abandoned', 'resolved'] as const;

/** What a retirement did: its commit (null: nothing was due), the capsules that left the tip, the tombstones forgotten. */
export interface RetireResult {
  commit: string | null;
  retired: Array<{ id: string; status: string }>;
  forgotten: number;
}

/**
 * Retention at the tip, as one forward commit (nothing is rewritten; everything stays in the
 * history): a finished capsule (resumed, abandoned, resolved) created and last touched by a status
 * event more than `retireAfterDays` ago leaves the tip — its folder and index line go, and a
 * tombstone `retired/<yyyy-mm-dd>/<id>` keeps every merge from bringing it back; tombstones
 * older than `keepHistoryDays` are forgotten, unless retireAfterDays is never. Nothing active, paused or recent is ever touched:
 * each candidate the index names is checked against its document and events first. A branch of
 * an older layout is left alone until its next write moves it. Throws WRITE_CONFLICT.
 */
export async function retireFinished(parts: StoreParts, opts: { now: Date; retention: Retention }): Promise<RetireResult> {
  const none: RetireResult = { commit: null, retired: [], forgotten: 0 };
  const { parseCapsule } = await import('../capsule/parse');
  return withCasRetry<RetireResult>(parts, async () => {
    const tip = await parts.tree.tip();
    if (tip === null || (await parts.tree.formatVersion(tip)) !== FORMAT_VERSION) return { done: true as const, value: none };
    const horizon = Number.isFinite(opts.retention.retireAfterDays) ? utcSortKey(opts.now.getTime() - opts.retention.retireAfterDays * DAY_MS) : '';
    const candidates = horizon === '' ? [] : await finishedBefore(parts.tree, tip, horizon);
    const checked = await Promise.all(candidates.map(async (c) => {
      const dir = capsuleDir(c.id);
      const [text, events] = await Promise.all([parts.tree.text(tip, documentIn(dir)), parts.tree.events(tip, dir)]);
      const fm = text === null ? {} : (parseCapsule(text).doc?.frontmatter ?? {});
      const status = maxStatus([fm.status, ...events.map((e) => e.status)]);
      const lastEvent = events.at(-1)?.stamp ?? '';
      return (FINISHED as readonly string[]).includes(status) && lastEvent < horizon ? { entry: c, status } : null;
    }));
    const retiring = checked.filter((c): c is NonNullable<typeof c> => c !== null);
    // Forgetting a tombstone is safe only where its capsule, brought back by a clone that still
    // holds it, would be retired again: a clone that never retires keeps every tombstone.
    const forgotten = horizon === '' ? [] : await expiredTombstones(parts.tree, tip, opts.now.getTime() - opts.retention.keepHistoryDays * DAY_MS);
    if (retiring.length === 0 && forgotten.length === 0) return { done: true as const, value: none };

    const stamp = opts.now.toISOString().slice(0, 10);
    const files = new Map<string, string | null>(retiring.map((r) => [retiredPath(r.entry.id), `retired: ${stamp}\n`]));
    for (const [path, text] of await indexWithout(parts.tree, tip, retiring.map((r) => r.entry))) files.set(path, text);
    const lines = retiring.map((r) => `retire ${r.entry.id} (${r.status})${r.entry.objective ? `: ${commitLine(r.entry.objective).slice(0, 72)}` : ''}`);
    const subject = `retire: ${retiring.length} capsule${retiring.length === 1 ? '' : 's'} finished before ${horizon.slice(0, 8) || 'never'}${forgotten.length > 0 ? `, ${forgotten.length} tombstone${forgotten.length === 1 ? '' : 's'} forgotten` : ''}`;
    const message = `${subject}\n\n${lines.length > 0 ? `${lines.slice(0, 40).join('\n')}\n\n` : ''}Capsule-Op: retire\nCapsule-Ids: ${retiring.map((r) => r.entry.id).slice(0, 30).join(' ') || 'none'}\n`;
    const outcome = await runImport(parts.git, parts.ref, [{
      identity: parts.identity,
      epochSeconds: Math.floor(opts.now.getTime() / 1000),
      message,
      from: tip,
      deleteDirs: [...retiring.map((r) => capsuleDir(r.entry.id)), ...forgotten],
      files,
    }], { keepPack: parts.keepPack() });
    if (!outcome.ok) return { done: false as const, outcome };
    parts.housekeeping();
    return { done: true as const, value: { commit: outcome.commit, retired: retiring.map((r) => ({ id: r.entry.id, status: r.status })), forgotten: forgotten.length } };
  });
}

/** Index entries of finished capsules created before `horizon` (a UTC sort key): only the days up to it are read. */
async function finishedBefore(tree: MemoryTree, tip: string, horizon: string): Promise<IndexEntry[]> {
  const horizonDay = dayOfSortKey(horizon);
  const days = (await Promise.all(FINISHED.map(async (status) => [...(await indexDays(tree, tip, status))].filter(([day]) => day <= horizonDay).map(([day, shape]) => ({ status, day, shape }))))).flat();
  return (await readDayEntries(tree, tip, days)).filter((e) => e.sortKey < horizon);
}

/**
 * The index files after removing `entries`: their shards without their lines, the counts lowered.
 * A line is looked for in its author's shard and in its day's blob of the previous version; a
 * day blob it leaves keeps its shape (the next write of that day splits it).
 */
async function indexWithout(tree: MemoryTree, tip: string, entries: readonly IndexEntry[]): Promise<Map<string, string | null>> {
  const files = new Map<string, string | null>();
  const byShard = new Map<string, IndexEntry[]>();
  for (const e of entries) {
    for (const path of [entryShardPath(e), dayShardDir(e.status, dayOfSortKey(e.sortKey))]) byShard.set(path, [...(byShard.get(path) ?? []), e]);
  }
  const countsText = await tree.text(tip, COUNTS_PATH);
  const counts = countsText === null ? null : parseCounts(countsText);
  await Promise.all([...byShard].map(async ([path, es]) => {
    // null for a path that is a folder or absent: nothing to edit there.
    const was = await tree.text(tip, path);
    if (was === null) return;
    let text: string | null = was;
    for (const e of es) text = replaceShardLine(text, e.id, null);
    if (text !== was) files.set(path, text);
  }));
  if (counts !== null) {
    for (const e of entries) counts[e.status] = Math.max(0, counts[e.status] - 1);
    files.set(COUNTS_PATH, encodeCounts(counts));
  }
  return files;
}

/** Tombstones written before `beforeMs` (their text says the day), to forget. */
async function expiredTombstones(tree: MemoryTree, tip: string, beforeMs: number): Promise<string[]> {
  const before = new Date(beforeMs).toISOString().slice(0, 10);
  const days = (await tree.subtrees(tip, RETIRED_DIR)).map((d) => `${RETIRED_DIR}/${d}`);
  const stones = (await Promise.all(days.map(async (d) => ((await tree.tree(tip, d)) ?? []).filter((e) => !e.isTree).map((e) => ({ path: `${d}/${e.name}`, oid: e.oid }))))).flat();
  const dates = new Map<string, string>();
  await Promise.all([...new Set(stones.map((s) => s.oid))].map(async (oid) => dates.set(oid, /^retired: (\d{4}-\d\d-\d\d)$/m.exec((await tree.blobText(oid)) ?? '')?.[1] ?? '')));
  return stones.filter((s) => (dates.get(s.oid) ?? '') !== '' && dates.get(s.oid)! < before).map((s) => s.path);
}
