import type { HookDeps, HookStore } from './hook-deps';
import type { HookContext } from './run-hook';

/** A store opened on first use: a hook with nothing to write never starts a git process. */
export interface LazyStore {
  get: () => Promise<HookStore>;
  /** Closes the store if it was opened. */
  close: () => Promise<void>;
}

/** Wraps `deps.openStore` for the project of `ctx`. */
export function lazyStore(deps: HookDeps, ctx: HookContext): LazyStore {
  let opened: Promise<HookStore> | undefined;
  return {
    get: () => (opened ??= deps.openStore({ cwd: ctx.projectDir, env: ctx.env })),
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}
