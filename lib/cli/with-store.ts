import { openStore } from '../store/open-store';
import type { MemoryStore } from '../store/types';
import type { CliContext } from './context';

/** Opens the memory store of the repository at `ctx.cwd`, runs `fn`, and always closes it. */
export async function withStore<T>(ctx: CliContext, fn: (store: MemoryStore) => Promise<T>): Promise<T> {
  const store = await openStore({ cwd: ctx.cwd, env: ctx.env });
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
