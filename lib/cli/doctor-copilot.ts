import { existsSync, readFileSync } from 'node:fs';
import { copilotHooksPath, type CopilotScope } from '../hosts/copilot/hooks-install';
import { COPILOT_EVENT_NAMES } from '../hosts/copilot/hook-events';
import type { DoctorCheck } from './doctor-checks';

/**
 * How the GitHub Copilot CLI reaches the hooks here: git-capsule's own hooks file at user level
 * and in the repository's `.github/hooks/` (which Copilot runs only once the folder is
 * trusted). Null when neither is there: nothing to say to someone who does not use Copilot.
 */
export function checkCopilotRoute(opts: { projectDir: string; env: NodeJS.ProcessEnv }): DoctorCheck | null {
  const found = (['user', 'project'] as CopilotScope[]).map((scope) => ({ scope, path: copilotHooksPath(scope, opts) })).filter((f) => existsSync(f.path));
  if (found.length === 0) return null;
  if (found.length === 2) {
    return { name: 'copilot hooks', status: 'warn', detail: `${found.map((f) => f.path).join(' and ')} both register the hooks: in a trusted folder every hook runs twice under the Copilot CLI`, fix: 'keep one: git capsule uninstall --copilot (user level) or git capsule uninstall --copilot --project' };
  }
  const f = found[0]!;
  const missing = missingEvents(f.path);
  if (missing === null) return { name: 'copilot hooks', status: 'fail', detail: `${f.path} is not a Copilot hooks file (not JSON, or no "hooks")`, fix: `git capsule uninstall --copilot${f.scope === 'project' ? ' --project' : ''}, then install --copilot again` };
  if (missing.length > 0) return { name: 'copilot hooks', status: 'warn', detail: `${f.path} does not register ${missing.join(', ')}`, fix: `git capsule install --copilot${f.scope === 'project' ? ' --project' : ''}` };
  const trust = f.scope === 'project' ? '; Copilot runs a repository\'s hooks only once the folder is trusted' : '';
  return { name: 'copilot hooks', status: 'ok', detail: `the GitHub Copilot CLI runs the hooks from ${f.path} (${f.scope} level)${trust}` };
}

function missingEvents(path: string): string[] | null {
  try {
    const hooks = (JSON.parse(readFileSync(path, 'utf8')) as { hooks?: Record<string, unknown> }).hooks;
    if (typeof hooks !== 'object' || hooks === null) return null;
    return Object.values(COPILOT_EVENT_NAMES).filter((name) => !Array.isArray(hooks[name]) || (hooks[name] as unknown[]).length === 0);
  } catch {
    return null;
  }
}
