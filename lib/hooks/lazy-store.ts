import type { HookDeps, HookStore } from './hook-deps';
import type { HookContext } from './run-hook';

/** A store opened on first use: a hook with nothing to write never starts a git process. */
export interface LazyStore {
  get: () => Promise<HookStore>;
  /**
   * Closes the store if it was opened, without waiting for its reader to exit: the end of a
   * hook, whose process exits next. cat-file exits by itself once its input is closed (git's
   * exit took ~2.6 ms of every Stop); a failure to close is not the hook's (it read what it needed).
   */
  release: () => void;
}

/** Wraps `deps.openStore` for the project of `ctx`. */
export function lazyStore(deps: HookDeps, ctx: HookContext): LazyStore {
  let opened: Promise<HookStore> | undefined;
  return {
    get: () => (opened ??= deps.openStore({ cwd: ctx.projectDir, env: ctx.env, repo: ctx.repo })),
    release: () => {
      if (opened) opened.then((s) => s.close()).catch(() => undefined);
    },
  };
}
