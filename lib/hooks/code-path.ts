/**
 * The paths a run took through its bundle (a resume or an orientation, a fold that committed or
 * one that did not), noted by the hooks for the code-cache launcher: a cache holds only what the
 * run that wrote it compiled, so a run down a path the cache has not seen compiles that path
 * again on every start until the cache is written anew (lib/launch/code-cache.ts). Only the hooks
 * note paths, so the note lives with them: the hook launcher (./launcher.ts) hands
 * `takenCodePaths` to the cache. The launcher and the hook bundle are two bundles in one
 * process, each with its own copy of this file: the set is kept under a global symbol.
 */
const KEY = Symbol.for('git-capsule.code-paths');

type WithPaths = typeof globalThis & { [KEY]?: Set<string> };

/** Notes that this run took `name` (a short label, stable across runs). */
export function noteCodePath(name: string): void {
  const g = globalThis as WithPaths;
  (g[KEY] ??= new Set()).add(name);
}

/** The paths noted in this process so far, sorted. */
export function takenCodePaths(): string[] {
  return [...((globalThis as WithPaths)[KEY] ?? [])].sort();
}
