import type { HookDeps } from './hook-deps';
import type { HookContext } from './run-hook';

/**
 * The config values for the budget, read once per hook through `deps.readGitConfig` (a cache
 * hit starts no git process). Undefined when not wired or when the read failed: the budget then
 * asks git itself and notes what went wrong, as it always did.
 */
export async function readHookGitConfig(deps: HookDeps, ctx: HookContext): Promise<Record<string, string> | undefined> {
  if (!deps.readGitConfig) return undefined;
  try {
    return await deps.readGitConfig({ cwd: ctx.projectDir, env: ctx.env });
  } catch {
    return undefined; // the budget's own read reports the failure (BUDGET_GIT_CONFIG)
  }
}
