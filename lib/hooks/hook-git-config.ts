import type { HookDeps } from './hook-deps';
import type { HookContext } from './run-hook';

/**
 * The config values for the budget, read once per hook through `deps.readGitConfig` (a cache
 * hit starts no git process). Undefined when not wired or when the read failed (logged as
 * BUDGET_GIT_CONFIG): the budget then takes what the config cache last held, else the defaults.
 */
export async function readHookGitConfig(deps: HookDeps, ctx: HookContext): Promise<Record<string, string> | undefined> {
  if (!deps.readGitConfig) return undefined;
  try {
    return await deps.readGitConfig({ cwd: ctx.projectDir, env: ctx.env });
  } catch (err) {
    ctx.warn('BUDGET_GIT_CONFIG', `could not read git config capsule.* (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); the budget uses the cached or default margins`);
    return undefined;
  }
}
