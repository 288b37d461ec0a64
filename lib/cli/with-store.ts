import { openStore } from '../store/open-store';
import type { MemoryStore } from '../store/types';
import type { CliContext } from './context';

/** Opens the memory store of the repository at `ctx.cwd`, runs `fn`, and always closes it. */
export async function withStore<T>(ctx: CliContext, fn: (store: MemoryStore) => Promise<T>): Promise<T> {
  return useStore(openStore({ cwd: ctx.cwd, env: ctx.env }), fn);
}

/**
 * Like `withStore`, but the store starts opening before `prepare` runs, so its git processes
 * start while the verb does CPU work (parsing, rendering YAML). The store is closed whatever
 * happens; an error of `prepare` wins over one of opening.
 */
export async function withStoreWhile<P, T>(ctx: CliContext, prepare: () => Promise<P>, fn: (store: MemoryStore, prepared: P) => Promise<T>): Promise<T> {
  const opening = openStore({ cwd: ctx.cwd, env: ctx.env });
  let prepared: P;
  try {
    prepared = await prepare();
  } catch (err) {
    await opening.then((s) => s.close(), () => undefined); // the prepare error is the one to report
    throw err;
  }
  return useStore(opening, (store) => fn(store, prepared));
}

async function useStore<T>(opening: Promise<MemoryStore>, fn: (store: MemoryStore) => Promise<T>): Promise<T> {
  const store = await opening;
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** A short age such as `42s`, `5m`, `3h`, `12d` from a created_at stamp to now; `?` when unreadable. */
export function formatAge(createdAt: string, now: Date): string {
  const ms = now.getTime() - Date.parse(createdAt);
  if (Number.isNaN(ms)) return '?';
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}
