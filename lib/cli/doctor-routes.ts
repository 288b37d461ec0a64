import { existsSync } from 'node:fs';
import { HOOK_EVENTS } from '../hosts/claude/hook-events';
import type { HookEventName } from '../hosts/host';
import { findOnPath, isCapsuleCommand, PATH_HOOK_COMMAND, readSettings, runsPathCommand, settingsPath, SETTINGS_SCOPES, wiredEvents, type ClaudeSettings, type SettingsScope } from '../hosts/claude/settings-file';
import { capsulePluginInstalls } from '../hosts/claude/installed-plugins';
import { lastRun, readHookRoutes, type HookRoute } from '../local-state/last-runs';
import type { DoctorCheck } from './doctor-checks';
import { formatAge } from './with-store';

/** A run older than this is not listed even as history. */
const RECENT_MS = 7 * 24 * 3600 * 1000;

/**
 * How the hooks reach this project now, judged from the current wiring: the settings files'
 * commands (per scope), the capsule plugin as Claude Code records it installed and the settings
 * enable it. What the hooks recorded on their last runs is history, shown as such: it decides
 * nothing, except for a plugin loaded with `--plugin-dir`, which nothing else records (and which
 * lasts only the sessions started with it). Two routes at once run every hook twice.
 */
export function checkHookRoutes(opts: { projectDir: string; env: NodeJS.ProcessEnv; runtimeDir: string | null; now: Date }): DoctorCheck[] {
  const files = SETTINGS_SCOPES.map((scope) => ({ scope, ...readScope(scope, opts) }));
  const enabled = files.filter((f) => f.settings && pluginEnabled(f.settings));
  const installs = capsulePluginInstalls(opts.env, opts.projectDir);
  const plugin = installs.length > 0 && enabled.length > 0;
  const routes = opts.runtimeDir ? readHookRoutes(opts.runtimeDir).filter((r) => opts.now.getTime() - lastRun(r) < RECENT_MS) : [];
  const pluginDirRuns = routes.filter((r) => r.route === 'plugin' && r.pluginData?.endsWith('-inline'));
  const runs: DoctorCheck = routes.length === 0
    ? { name: 'hook runs', status: 'ok', detail: 'history: no hook has run in this repository in the last 7 days' }
    : { name: 'hook runs', status: 'ok', detail: `history, not wiring: ${routes.map((r) => describeRoute(r, opts.now)).join('; ')}` };

  // A shared file's guarded command steps aside where git-capsule-hook is not on PATH: it wires nothing here.
  const absent = files.filter((f) => f.settings && wiredEvents(f.settings).length > 0 && pathCommandMissing(f.settings, opts.env));
  const wired = files.filter((f) => f.settings && wiredEvents(f.settings).length > 0 && !absent.includes(f));
  const pluginRuns = plugin || pluginDirRuns.length > 0;
  const twice = ranTwice(routes);
  const uninstall = wired.map((f) => `git capsule uninstall${f.scope === 'local' ? '' : ` --${f.scope}`}`).join(' and ');
  const pluginName = plugin ? `the capsule plugin (installed: ${installs.map((i) => `${i.id}, ${i.scope} scope`).join('; ')})` : `the capsule plugin (ran with --plugin-dir from ${pluginDirRuns[0]?.root})`;
  if (wired.length > 0 && pluginRuns) {
    return [{ name: 'hooks', status: 'warn', detail: `${pluginName} and settings hooks (${wired.map((f) => f.path).join(', ')}) both run: every hook runs twice${twice}`, fix: `keep one route: ${uninstall}, or remove the plugin (claude plugin uninstall capsule@git-capsule, or stop passing --plugin-dir)` }, runs];
  }
  if (wired.length > 1) {
    return [{ name: 'hooks', status: 'warn', detail: `settings hooks are wired in ${wired.length} files (${wired.map((f) => f.path).join(', ')}): every hook runs twice${twice}`, fix: `keep one: run ${wired.slice(1).map((f) => `git capsule uninstall${f.scope === 'local' ? '' : ` --${f.scope}`}`).join(' and ')}` }, runs];
  }
  if (wired.length === 1) {
    const f = wired[0]!;
    const missing = (Object.keys(HOOK_EVENTS) as HookEventName[]).filter((e) => !wiredEvents(f.settings!).includes(e));
    const broken = brokenCommands(f.settings!, opts);
    if (broken.length > 0) {
      const fix = broken.some((b) => b.startsWith(PATH_HOOK_COMMAND))
        ? `put ${PATH_HOOK_COMMAND} on PATH (npm install -g git-capsule), or install the capsule plugin and remove these commands (git capsule uninstall${f.scope === 'local' ? '' : ` --${f.scope}`})`
        : `run git capsule install${f.scope === 'local' ? '' : ` --${f.scope}`} again from the current install`;
      return [{ name: 'hooks', status: 'fail', detail: `the hook commands in ${f.path} cannot run: ${broken.join(', ')}`, fix }, runs];
    }
    if (missing.length > 0) return [{ name: 'hooks', status: 'warn', detail: `${f.path} does not wire ${missing.join(', ')}`, fix: `run git capsule install${f.scope === 'local' ? '' : ` --${f.scope}`}` }, runs];
    return [{ name: 'hooks', status: 'ok', detail: `all ${Object.keys(HOOK_EVENTS).length} hooks wired in ${f.path} (${f.scope} settings)` }, runs];
  }
  const aside = absent.length > 0 ? `; ${absent.map((f) => f.path).join(', ')} runs ${PATH_HOOK_COMMAND}, which is not on PATH here, so its commands do nothing` : '';
  if (plugin) return [{ name: 'hooks', status: 'ok', detail: `${pluginName} runs the hooks${aside}` }, runs];
  if (pluginDirRuns.length > 0) return [{ name: 'hooks', status: 'ok', detail: `no installed route; the capsule plugin ran with --plugin-dir (${pluginDirRuns.map((r) => r.root).join(', ')}), which runs the hooks only in the sessions started with it${aside}` }, runs];
  if (absent.length > 0) {
    return [{ name: 'hooks', status: 'warn', detail: `${absent.map((f) => f.path).join(', ')} runs ${PATH_HOOK_COMMAND}, which is not on PATH here: no hook runs for this project`, fix: `install one of: the git-capsule CLI (npm install -g git-capsule, which puts ${PATH_HOOK_COMMAND} on PATH), or the capsule plugin (git capsule install --plugin prints how)` }, runs];
  }
  if (enabled.length > 0) {
    return [{ name: 'hooks', status: 'warn', detail: `the capsule plugin is enabled (${enabled.map((f) => f.path).join(', ')}) but not installed on this machine: no hook runs`, fix: 'claude plugin install capsule@git-capsule (git capsule install --plugin prints the marketplace to add first)' }, runs];
  }
  return [
    { name: 'hooks', status: 'warn', detail: 'no route runs the git-capsule hooks for this project: no settings wiring, no installed plugin', fix: 'install the plugin (git capsule install --plugin prints how), or run git capsule install' },
    runs,
  ];
}

/** True when every capsule command in these settings runs git-capsule-hook from PATH and it is not there. */
function pathCommandMissing(settings: ClaudeSettings, env: NodeJS.ProcessEnv): boolean {
  const commands = capsuleCommands(settings);
  return commands.length > 0 && commands.every((c) => runsPathCommand(c) && c.includes('command -v')) && findOnPath(PATH_HOOK_COMMAND, env.PATH) === null;
}

function capsuleCommands(settings: ClaudeSettings): string[] {
  const out: string[] = [];
  for (const groups of Object.values(settings.hooks ?? {})) {
    for (const g of Array.isArray(groups) ? groups : []) for (const h of Array.isArray(g?.hooks) ? g.hooks : []) if (isCapsuleCommand(h?.command)) out.push(h.command as string);
  }
  return out;
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

/** Commands whose bundle is missing or whose PATH command is not found (an unguarded one, written before the guard). */
function brokenCommands(settings: ClaudeSettings, opts: { projectDir: string; env: NodeJS.ProcessEnv }): string[] {
  const broken: string[] = [];
  for (const command of capsuleCommands(settings)) {
    const file = /^node "([^"]+)"/.exec(command)?.[1]?.replace('${CLAUDE_PROJECT_DIR}', opts.projectDir);
    if (file !== undefined && !existsSync(file)) broken.push(`${file} is missing`);
    if (runsPathCommand(command) && findOnPath(PATH_HOOK_COMMAND, opts.env.PATH) === null) broken.push(`${PATH_HOOK_COMMAND} is not on PATH`);
  }
  return [...new Set(broken)];
}
