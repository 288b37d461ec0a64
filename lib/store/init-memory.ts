import { withCasRetry } from './cas-retry';
import { runImport } from '../git/fast-import';
import { rootCommitSpec } from './root-commit';
import type { StoreParts } from './store-parts';

/**
 * Creates the memory branch at the deterministic root commit when it is missing; otherwise
 * reports the branch's root. Throws MEMORY_ROOT, GIT_FAILED.
 */
export async function initMemory(parts: StoreParts): Promise<{ root: string; created: boolean }> {
  return withCasRetry<{ root: string; created: boolean }>(parts, async () => {
    const tip = await parts.tree.tip();
    if (tip !== null) {
      const { stdout } = await parts.git.run(['rev-list', '--max-parents=0', tip, '--']);
      return { done: true as const, value: { root: stdout.trim().split('\n').pop() ?? tip, created: false } };
    }
    const outcome = await runImport(parts.git, parts.ref, [rootCommitSpec()], { keepPack: parts.keepPack() });
    return outcome.ok ? { done: true as const, value: { root: outcome.commit, created: true } } : { done: false as const, outcome };
  });
}
