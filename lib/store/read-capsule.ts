import { findCapsule } from './find-capsule';
import { capsuleDir, documentIn, legacyDirHints } from './memory-format';
import type { MemoryTree } from './memory-tree';
import { maxStatus } from './status-lattice';
import type { CapsuleRecord } from './types';

/**
 * Reads one capsule by id or unambiguous prefix: the document, its status history (oldest
 * first) and its derived status. Throws NOT_FOUND, AMBIGUOUS_ID, MEMORY_ROOT.
 */
export async function readCapsule(tree: MemoryTree, idOrPrefix: string): Promise<CapsuleRecord> {
  const { parseCapsule } = await import('../capsule/parse');
  const tip = await tree.tip();
  const { id, dir } = await findCapsule(tree, tip, idOrPrefix);
  const path = documentIn(dir);
  const [text, events] = await Promise.all([tree.text(tip!, path), tree.events(tip!, dir)]);
  const fm = text === null ? {} : (parseCapsule(text).doc?.frontmatter ?? {});
  return { id, path, text: text ?? '', status: maxStatus([fm.status, ...events.map((e) => e.status)]), events };
}

/**
 * Documents of many capsules by full id, through the one cat-file; unknown ids are left out.
 * Each id is looked for where its own time puts it, so reading a few candidates costs the same
 * at any N; only the misses (a branch of format 1 holding odd ids) scan the shard folders.
 */
export async function readTexts(tree: MemoryTree, ids: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const tip = await tree.tip();
  if (tip === null || ids.length === 0) return found;
  // One round trip: each document is asked for where format 3 puts it and where formats 2 and 1 did.
  const hinted = await Promise.all(ids.map(async (id) => {
    const texts = await Promise.all([capsuleDir(id), ...legacyDirHints(id)].map((d) => tree.text(tip, documentIn(d))));
    return texts.find((t) => t !== null) ?? null;
  }));
  const missing = new Set<string>();
  ids.forEach((id, i) => {
    const text = hinted[i];
    if (typeof text === 'string') found.set(id, text);
    else missing.add(id);
  });
  if (missing.size === 0) return found;
  const dirs = (await tree.capsuleDirs(tip)).filter((d) => missing.has(d.id));
  const texts = await Promise.all(dirs.map((d) => tree.text(tip, documentIn(d.dir))));
  dirs.forEach((d, i) => {
    const text = texts[i];
    if (typeof text === 'string') found.set(d.id, text);
  });
  return found;
}
