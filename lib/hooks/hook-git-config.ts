import type { HookContext } from './run-hook';

/**
 * The config values for the budget: the run's one config read (HookContext.repo), which the store
 * shares (a cache hit starts no git process). Undefined when the read failed (logged as
 * BUDGET_GIT_CONFIG): the budget then takes what the config cache last held, else the defaults.
 */
export async function readHookGitConfig(ctx: HookContext): Promise<Record<string, string> | undefined> {
  try {
    return (await ctx.repo.config()).values;
  } catch (err) {
    ctx.warn('BUDGET_GIT_CONFIG', `could not read git config capsule.* (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); the budget uses the cached or default margins`);
    return undefined;
  }
}
