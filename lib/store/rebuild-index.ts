import { withCasRetry } from './cas-retry';
import { collectEntries } from './collect-entries';
import { opCommitMessage } from './commit-message';
import { runImport } from '../git/fast-import';
import { planLayoutUpgrade } from './layout-upgrade';
import { FORMAT_VERSION } from './memory-format';
import type { MemoryTree } from './memory-tree';
import { INDEX_DIR, buildIndexFiles } from './selection-index';
import type { StoreParts } from './store-parts';

/**
 * Recomputes the whole derived index from the capsules and commits it when it differs from
 * the tip's (e.g. after a merge). A branch of an older layout is migrated in the same commit
 * (folders moved where their ids belong, FORMAT rewritten): `git capsule reindex` is the
 * explicit migration. Throws WRITE_CONFLICT, MEMORY_ROOT, MEMORY_FORMAT_NEWER.
 */
export async function rebuildIndex(parts: StoreParts, opts: { now: Date }): Promise<{ commit: string | null; changed: boolean; count: number }> {
  return withCasRetry<{ commit: string | null; changed: boolean; count: number }>(parts, async () => {
    const tip = await parts.tree.tip();
    if (tip === null) return { done: true as const, value: { commit: null, changed: false, count: 0 } };
    const upgrade = await planLayoutUpgrade(parts.tree, tip);
    const entries = await collectEntries(parts.tree, tip, { inPlace: upgrade !== null });
    const files = buildIndexFiles(entries);
    const current = await readIndexFiles(parts.tree, tip);
    if (upgrade === null && sameFiles(files, current)) return { done: true as const, value: { commit: null, changed: false, count: entries.length } };
    const outcome = await runImport(parts.git, parts.ref, [{
      identity: parts.identity,
      epochSeconds: Math.floor(opts.now.getTime() / 1000),
      message: upgrade === null ? opCommitMessage('rebuild-index', `${entries.length} capsules`) : opCommitMessage('migrate', `layout ${upgrade.from ?? 1} -> ${FORMAT_VERSION}, ${entries.length} capsules`),
      from: tip,
      deleteDirs: [...(upgrade?.deleteDirs ?? []), INDEX_DIR],
      objects: upgrade?.objects,
      files: new Map([...(upgrade?.files ?? []), ...files]),
    }], { keepPack: parts.keepPack() });
    return outcome.ok ? { done: true as const, value: { commit: outcome.commit, changed: true, count: entries.length } } : { done: false as const, outcome };
  });
}

/** Every file under `index/` at `rev` (path → content). */
export async function readIndexFiles(tree: MemoryTree, rev: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    const entries = (await tree.tree(rev, dir)) ?? [];
    await Promise.all(entries.map(async (e) => {
      const path = `${dir}/${e.name}`;
      if (e.isTree) return walk(path);
      files.set(path, (await tree.text(rev, path)) ?? '');
    }));
  };
  await walk(INDEX_DIR);
  return files;
}

function sameFiles(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, content] of a) if (b.get(path) !== content) return false;
  return true;
}
