import type { CapsuleStatus } from '../capsule/types';
import type { MemoryTree } from './memory-tree';
import { INDEX_DIR, dayShardDir, parseShard } from './selection-index';
import type { IndexEntry } from './types';

/**
 * How one status's index keeps a day: a folder of author shards (`index/<status>/<day>/<author>`,
 * what this version writes) or one blob (`index/<status>/<day>`, the previous version's, read as
 * it is until a write of that day splits it).
 */
export type DayShape = 'folder' | 'blob';

/** The days one status's index holds, each with its shape (one tree read). */
export async function indexDays(tree: MemoryTree, tip: string, status: CapsuleStatus): Promise<Map<string, DayShape>> {
  const days = new Map<string, DayShape>();
  for (const e of (await tree.tree(tip, `${INDEX_DIR}/${status}`)) ?? []) days.set(e.name, e.isTree ? 'folder' : 'blob');
  return days;
}

/**
 * Every shard of the given (status, day, shape) triples with its text, asked at once: one round
 * trip for the folders, one for the blobs. A shard that vanished reads as empty.
 */
export async function readDayShards(tree: MemoryTree, tip: string, days: ReadonlyArray<{ status: CapsuleStatus; day: string; shape: DayShape }>): Promise<Array<{ status: CapsuleStatus; path: string; text: string }>> {
  const folders = await Promise.all(days.map((d) => (d.shape === 'folder' ? tree.tree(tip, dayShardDir(d.status, d.day)) : Promise.resolve(null))));
  const paths = days.flatMap((d, i) => {
    const dir = dayShardDir(d.status, d.day);
    return d.shape === 'blob' ? [{ status: d.status, path: dir }] : (folders[i] ?? []).filter((e) => !e.isTree).map((e) => ({ status: d.status, path: `${dir}/${e.name}` }));
  });
  const texts = await Promise.all(paths.map((p) => tree.text(tip, p.path)));
  return paths.map((p, i) => ({ ...p, text: texts[i] ?? '' }));
}

/** The entries of the given days' shards, in no particular order. */
export async function readDayEntries(tree: MemoryTree, tip: string, days: ReadonlyArray<{ status: CapsuleStatus; day: string; shape: DayShape }>): Promise<IndexEntry[]> {
  return (await readDayShards(tree, tip, days)).flatMap((s) => parseShard(s.text, s.status));
}
