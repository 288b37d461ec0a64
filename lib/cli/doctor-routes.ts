import { existsSync } from 'node:fs';
import { HOOK_EVENTS } from '../hosts/claude/hook-events';
import type { HookEventName } from '../hosts/host';
import { findOnPath, isCapsuleCommand, PATH_HOOK_COMMAND, readSettings, settingsPath, SETTINGS_SCOPES, wiredEvents, type ClaudeSettings, type SettingsScope } from '../hosts/claude/settings-file';
import { lastRun, readHookRoutes, type HookRoute } from '../local-state/last-runs';
import type { DoctorCheck } from './doctor-checks';
import { formatAge } from './with-store';

/** A run older than this says nothing about today's wiring. */
const RECENT_MS = 7 * 24 * 3600 * 1000;

/**
 * How the hooks reach this project, from both ends: what the settings files wire (per scope)
 * and enable (the plugin), and what the hooks themselves recorded on their last runs (plugin
 * root, version, the events that fired), which is the only way to see a plugin loaded with
 * `--plugin-dir`. Two routes at once run every hook twice, in either direction.
 */
export function checkHookRoutes(opts: { projectDir: string; env: NodeJS.ProcessEnv; runtimeDir: string | null; now: Date }): DoctorCheck[] {
  const files = SETTINGS_SCOPES.map((scope) => ({ scope, ...readScope(scope, opts) }));
  const wired = files.filter((f) => f.settings && wiredEvents(f.settings).length > 0);
  const enabled = files.filter((f) => f.settings && pluginEnabled(f.settings));
  const routes = opts.runtimeDir ? readHookRoutes(opts.runtimeDir).filter((r) => opts.now.getTime() - lastRun(r) < RECENT_MS) : [];
  const pluginRuns = routes.filter((r) => r.route === 'plugin');
  const runs: DoctorCheck = routes.length === 0
    ? { name: 'hook runs', status: 'ok', detail: 'no hook has run in this repository in the last 7 days' }
    : { name: 'hook runs', status: 'ok', detail: routes.map((r) => describeRoute(r, opts.now)).join('; ') };

  const twice = ranTwice(routes);
  const uninstall = wired.map((f) => `git capsule uninstall${f.scope === 'local' ? '' : ` --${f.scope}`}`).join(' and ');
  if (wired.length > 0 && (enabled.length > 0 || pluginRuns.length > 0)) {
    const plugin = pluginRuns[0] ? `the capsule plugin (ran from ${pluginRuns[0].root})` : `the capsule plugin (enabled in ${enabled.map((f) => f.path).join(', ')})`;
    return [{ name: 'hooks', status: 'warn', detail: `${plugin} and settings hooks (${wired.map((f) => f.path).join(', ')}) both run: every hook runs twice${twice}`, fix: `keep one route: ${uninstall}, or remove the plugin (claude plugin uninstall capsule@git-capsule, or stop passing --plugin-dir)` }, runs];
  }
  if (wired.length > 1) {
    return [{ name: 'hooks', status: 'warn', detail: `settings hooks are wired in ${wired.length} files (${wired.map((f) => f.path).join(', ')}): every hook runs twice${twice}`, fix: `keep one: run ${wired.slice(1).map((f) => `git capsule uninstall${f.scope === 'local' ? '' : ` --${f.scope}`}`).join(' and ')}` }, runs];
  }
  if (wired.length === 1) {
    const f = wired[0]!;
    const missing = (Object.keys(HOOK_EVENTS) as HookEventName[]).filter((e) => !wiredEvents(f.settings!).includes(e));
    const broken = brokenCommands(f.settings!, opts);
    if (broken.length > 0) return [{ name: 'hooks', status: 'fail', detail: `the hook commands in ${f.path} cannot run: ${broken.join(', ')}`, fix: `run git capsule install${f.scope === 'local' ? '' : ` --${f.scope}`} again from the current install` }, runs];
    if (missing.length > 0) return [{ name: 'hooks', status: 'warn', detail: `${f.path} does not wire ${missing.join(', ')}`, fix: `run git capsule install${f.scope === 'local' ? '' : ` --${f.scope}`}` }, runs];
    return [{ name: 'hooks', status: 'ok', detail: `all ${Object.keys(HOOK_EVENTS).length} hooks wired in ${f.path} (${f.scope} settings)` }, runs];
  }
  if (pluginRuns.length > 0) return [{ name: 'hooks', status: 'ok', detail: `the capsule plugin runs the hooks (${pluginRuns.map((r) => r.root).join(', ')})` }, runs];
  if (enabled.length > 0) return [{ name: 'hooks', status: 'ok', detail: `the capsule plugin is enabled (${enabled.map((f) => f.path).join(', ')}); none of its hooks has run here yet` }, runs];
  return [
    { name: 'hooks', status: 'warn', detail: 'no route runs the git-capsule hooks for this project: no settings wiring, no enabled plugin, no recorded run', fix: 'install the plugin (git capsule install --plugin prints how), or run git capsule install' },
    runs,
  ];
}

function readScope(scope: SettingsScope, opts: { projectDir: string; env: NodeJS.ProcessEnv }): { path: string; settings: ClaudeSettings | null } {
  try {
    const path = settingsPath(scope, opts);
    return { path, settings: existsSync(path) ? readSettings(path) : null };
  } catch {
    return { path: scope, settings: null };
  }
}

function pluginEnabled(settings: ClaudeSettings): boolean {
  const plugins = settings.enabledPlugins;
  return !!plugins && typeof plugins === 'object' && Object.entries(plugins).some(([id, on]) => id.startsWith('capsule@') && on === true);
}

/** "plugin /root (0.1.0, --plugin-dir): Stop 3m ago, SessionStart 1h ago". */
function describeRoute(r: HookRoute, now: Date): string {
  const how = r.route === 'plugin' ? `plugin ${r.root} (${r.version}${r.pluginData?.endsWith('-inline') ? ', --plugin-dir' : r.pluginData ? `, installed as ${r.pluginData}` : ''})` : `settings command ${r.root} (${r.version})`;
  const events = Object.entries(r.events).sort((a, b) => Date.parse(b[1].at) - Date.parse(a[1].at)).map(([event, e]) => `${event} ${formatAge(e.at, now)} ago`);
  return `${r.host === 'claude' ? '' : `${r.host} `}${how}: ${events.join(', ')}`;
}

/** ", and SessionStart ran twice in session X" when two routes recorded one event of one session. */
function ranTwice(routes: HookRoute[]): string {
  for (const [i, a] of routes.entries()) {
    for (const b of routes.slice(i + 1)) {
      for (const [event, e] of Object.entries(a.events)) {
        const other = b.events[event];
        if (e.session !== null && other?.session === e.session) return `; ${event} ran twice in session ${e.session} (${a.root} and ${b.root})`;
      }
    }
  }
  return '';
}

/** Commands whose bundle is missing or whose PATH command is not found. */
function brokenCommands(settings: ClaudeSettings, opts: { projectDir: string; env: NodeJS.ProcessEnv }): string[] {
  const broken: string[] = [];
  for (const groups of Object.values(settings.hooks ?? {})) {
    for (const g of Array.isArray(groups) ? groups : []) {
      for (const h of Array.isArray(g?.hooks) ? g.hooks : []) {
        if (!isCapsuleCommand(h?.command)) continue;
        const command = h.command as string;
        const file = /^node "([^"]+)"/.exec(command)?.[1]?.replace('${CLAUDE_PROJECT_DIR}', opts.projectDir);
        if (file !== undefined && !existsSync(file)) broken.push(`${file} is missing`);
        if (command.startsWith(`${PATH_HOOK_COMMAND} `) && findOnPath(PATH_HOOK_COMMAND, opts.env.PATH) === null) broken.push(`${PATH_HOOK_COMMAND} is not on PATH`);
      }
    }
  }
  return [...new Set(broken)];
}
