import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One install of the capsule plugin, as Claude Code recorded it. */
export interface PluginInstall {
  id: string;
  scope: string;
  installPath: string;
}

/**
 * The capsule plugin's installs that apply to `projectDir`, read from Claude Code's own record
 * (`${CLAUDE_CONFIG_DIR:-~/.claude}/plugins/installed_plugins.json`, written by `claude plugin
 * install` and emptied by `claude plugin uninstall`, 2.1.332): user-scope ones, and project- or
 * local-scope ones made in this project. None when the file is missing or unreadable.
 */
export function capsulePluginInstalls(env: NodeJS.ProcessEnv, projectDir: string): PluginInstall[] {
  const configDir = env.CLAUDE_CONFIG_DIR || (env.HOME ? join(env.HOME, '.claude') : null);
  if (configDir === null) return [];
  let value: { plugins?: Record<string, unknown> };
  try {
    value = JSON.parse(readFileSync(join(configDir, 'plugins', 'installed_plugins.json'), 'utf8'));
  } catch {
    return [];
  }
  const out: PluginInstall[] = [];
  for (const [id, entries] of Object.entries(value?.plugins ?? {})) {
    if (!id.startsWith('capsule@') || !Array.isArray(entries)) continue;
    for (const e of entries as Array<{ scope?: unknown; installPath?: unknown; projectPath?: unknown }>) {
      const scope = typeof e?.scope === 'string' ? e.scope : 'user';
      const here = scope === 'user' || (typeof e?.projectPath === 'string' && resolve(e.projectPath) === resolve(projectDir));
      if (here) out.push({ id, scope, installPath: typeof e?.installPath === 'string' ? e.installPath : '' });
    }
  }
  return out;
}
