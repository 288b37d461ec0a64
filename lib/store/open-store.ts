import { CapsuleError } from '../errors/capsule-error';
import type { MemoryStore } from './types';

/**
 * Opens the memory branch of the repository containing `cwd`.
 * Throws NOT_A_REPO, GIT_MISSING, MEMORY_ROOT.
 *
 * @example const store = await openStore({ cwd: process.cwd() }); try { await store.listIndex(); } finally { await store.close(); }
 */
export async function openStore(opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<MemoryStore> {
  throw new CapsuleError('NOT_IMPLEMENTED', `openStore(${opts.cwd}) is not implemented yet`);
}
