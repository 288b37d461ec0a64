import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The bundle of a layout-1 memory branch written by git-capsule before the layout change (see its README). */
export const LEGACY_BUNDLE = join(__dirname, '..', 'fixtures', 'memory-v1', 'memory-v1.bundle');

/** Which of the bundle's refs: the remote's branch, or one clone's unsynced writes on top of it. */
export type LegacyRef = 'capsules' | 'capsules-a' | 'capsules-b';

/** Puts one of the bundle's refs into `dir` as `ref` (default the memory branch), as the old version left it. */
export function loadLegacyMemory(dir: string, env: NodeJS.ProcessEnv, which: LegacyRef, ref = 'refs/heads/capsules'): string {
  execFileSync('git', ['fetch', '-q', LEGACY_BUNDLE, `+refs/heads/${which}:${ref}`], { cwd: dir, env, stdio: 'pipe' });
  return execFileSync('git', ['rev-parse', ref], { cwd: dir, env, encoding: 'utf8' }).trim();
}

/**
 * What a memory tree holds, layout aside: id → its document blob and its status event names.
 * Read with plain git, so a migration test does not trust the code it tests.
 */
export function memoryContent(dir: string, env: NodeJS.ProcessEnv, rev: string): Map<string, { doc: string | null; events: string[] }> {
  const out = execFileSync('git', ['ls-tree', '-r', rev, '--', 'capsules'], { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  const content = new Map<string, { doc: string | null; events: string[] }>();
  for (const line of out.split('\n').filter(Boolean)) {
    const [meta, path] = line.split('\t') as [string, string];
    const oid = meta.split(' ')[2]!;
    const m = /^capsules\/(?:[^/]+\/){1,3}([^/]+)\/(capsule\.md|status\/([^/]+))$/.exec(path);
    if (!m) continue;
    const slot = content.get(m[1]!) ?? { doc: null, events: [] };
    if (m[2] === 'capsule.md') slot.doc = oid;
    else slot.events.push(m[3]!);
    slot.events.sort();
    content.set(m[1]!, slot);
  }
  return content;
}
