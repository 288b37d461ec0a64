import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { CapsuleError } from '../../errors/capsule-error';
import type { HookEventName } from '../host';
import { HOOK_EVENTS } from './hook-events';

/** Appended to every hook command install writes, so uninstall removes exactly those and nothing else. */
export const HOOK_MARKER = '--capsule-hook';
/** The command on PATH a shared settings file runs (bin/git-capsule-hook), when git-capsule is not inside the project. */
export const PATH_HOOK_COMMAND = 'git-capsule-hook';

type HookEntry = { type?: string; command?: string; timeout?: number; [k: string]: unknown };
type HookGroup = { matcher?: string; hooks?: HookEntry[]; [k: string]: unknown };
/** A Claude Code settings file as read; install and uninstall edit its text, never re-serialise it. */
export type ClaudeSettings = { hooks?: Record<string, HookGroup[]>; enabledPlugins?: unknown; [k: string]: unknown };

/**
 * Which settings file: `local` is `<project>/.claude/settings.local.json` (not committed: the
 * default, paths of this machine are fine there), `project` the shared, committed
 * `<project>/.claude/settings.json` (commands that name no path of this machine), `user`
 * `${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json` (every project of this user).
 */
export type SettingsScope = 'local' | 'project' | 'user';
export const SETTINGS_SCOPES: SettingsScope[] = ['local', 'project', 'user'];

/** The settings file of a scope. NO_HOME when the user's is asked for and neither CLAUDE_CONFIG_DIR nor HOME is set. */
export function settingsPath(scope: SettingsScope, opts: { projectDir: string; env: NodeJS.ProcessEnv }): string {
  if (scope === 'local') return join(opts.projectDir, '.claude', 'settings.local.json');
  if (scope === 'project') return join(opts.projectDir, '.claude', 'settings.json');
  if (opts.env.CLAUDE_CONFIG_DIR) return join(opts.env.CLAUDE_CONFIG_DIR, 'settings.json');
  if (!opts.env.HOME) throw new CapsuleError('NO_HOME', 'cannot find the user settings: neither CLAUDE_CONFIG_DIR nor HOME is set; set HOME or install per project (without --user)');
  return join(opts.env.HOME, '.claude', 'settings.json');
}

/** A settings file's text and value; `text` null when the file does not exist. SETTINGS_INVALID when it is not a JSON object. */
export function readSettingsFile(path: string): { text: string | null; settings: ClaudeSettings } {
  if (!existsSync(path)) return { text: null, settings: {} };
  const text = readFileSync(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CapsuleError('SETTINGS_INVALID', `${path} is not valid JSON (${(err as Error).message}); fix it by hand, then run install again`, { path }, { cause: err });
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CapsuleError('SETTINGS_INVALID', `${path} must hold a JSON object; fix it by hand, then run install again`, { path });
  return { text, settings: value as ClaudeSettings };
}

/** The value of a settings file (`{}` when missing); SETTINGS_INVALID as readSettingsFile. */
export function readSettings(path: string): ClaudeSettings {
  return readSettingsFile(path).settings;
}

/**
 * The command install registers for one event. The local and user files stay on this machine,
 * so they name the bundle by its absolute path. The shared project file must work on every
 * clone: `${CLAUDE_PROJECT_DIR}/…` when the bundles are inside the project (a devDependency),
 * else the `git-capsule-hook` command on PATH. (Claude Code 2.1.332 runs hook commands through
 * a shell with CLAUDE_PROJECT_DIR and the caller's PATH set: both forms checked with the harness.)
 */
export function hookCommand(scope: SettingsScope, event: HookEventName, opts: { bundleDir: string; projectDir: string; platform?: NodeJS.Platform }): string {
  const file = `${HOOK_EVENTS[event].file}.js`;
  if (scope !== 'project') return `node "${portablePath(join(opts.bundleDir, file), opts.platform ?? process.platform)}" ${HOOK_MARKER}`;
  const inside = relative(resolve(opts.projectDir), resolve(opts.bundleDir));
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) return `node "\${CLAUDE_PROJECT_DIR}/${inside.split('\\').join('/')}/${file}" ${HOOK_MARKER}`;
  return guardedPathCommand(event);
}

/**
 * A Windows path with forward slashes: node takes them, and `node "C:/…/stop.js"` means the same
 * to Git Bash (which Claude Code runs hooks with on Windows), PowerShell (its fallback) and cmd,
 * where backslashes inside double quotes are an escape to one of them. Elsewhere a backslash is
 * an ordinary file-name character and stays.
 */
export function portablePath(path: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? path.split('\\').join('/') : path;
}

/**
 * The shared file's command when git-capsule is not inside the project. A teammate who has only
 * the plugin, or nothing yet, has no `git-capsule-hook` on PATH: the command then does nothing
 * (exit 0, never "not found" on every hook), and SessionStart says in one line what to install,
 * unless the capsule plugin is installed (it runs the hooks then). POSIX sh, as the host runs it.
 */
function guardedPathCommand(event: HookEventName): string {
  const run = `exec ${PATH_HOOK_COMMAND} ${HOOK_EVENTS[event].file} ${HOOK_MARKER}`;
  const found = `command -v ${PATH_HOOK_COMMAND} >/dev/null 2>&1`;
  if (event !== 'SessionStart') return `${found} || exit 0; ${run}`;
  const plugin = `grep -qs '"capsule@' "\${CLAUDE_CONFIG_DIR:-$HOME/.claude}/plugins/installed_plugins.json"`;
  return `${found} || { ${plugin} || echo '{"systemMessage":"${MISSING_HOOK_COMMAND_LINE}"}'; exit 0; }; ${run}`;
}

/** The one line a teammate without git-capsule sees at SessionStart (no quote, apostrophe or backslash: it sits in single quotes in sh, then in JSON). */
export const MISSING_HOOK_COMMAND_LINE = `git-capsule: the project .claude/settings.json runs ${PATH_HOOK_COMMAND}, which is not on PATH here: npm install -g git-capsule, or install the capsule plugin (README, Install)`;

/** True when a command runs `git-capsule-hook` from PATH (either form install has written). */
export function runsPathCommand(command: string): boolean {
  return command.startsWith(`${PATH_HOOK_COMMAND} `) || command.includes(`exec ${PATH_HOOK_COMMAND} `);
}

/** True for a command install wrote (it carries the marker). */
export function isCapsuleCommand(command: unknown): boolean {
  return typeof command === 'string' && command.trimEnd().endsWith(HOOK_MARKER);
}

/** The events whose capsule command is registered in these settings. */
export function wiredEvents(settings: ClaudeSettings): HookEventName[] {
  return (Object.keys(HOOK_EVENTS) as HookEventName[]).filter((event) => {
    const groups = settings.hooks?.[event];
    return Array.isArray(groups) && groups.some((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => isCapsuleCommand(h?.command)));
  });
}

/** The executable `name` on a PATH, or null. */
export function findOnPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) if (dir && existsSync(join(dir, name))) return join(dir, name);
  return null;
}

/**
 * Where the built hook bundles are: `dist/hooks` beside the CLI bundle (`dist/impl/` holds the
 * CLI behind its launcher), or the repository's dist/ when running from source. HOOK_BUNDLES_MISSING when neither has them.
 */
export function hookBundleDir(env: NodeJS.ProcessEnv): string {
  const candidates = [env.CAPSULE_HOOKS_DIR, join(__dirname, 'hooks'), join(__dirname, '..', 'hooks'), resolve(__dirname, '..', '..', '..', 'dist', 'hooks')];
  for (const dir of candidates) if (dir && existsSync(join(dir, 'session-start.js'))) return resolve(dir);
  throw new CapsuleError('HOOK_BUNDLES_MISSING', `no built hook bundles found (looked in ${candidates.filter(Boolean).join(', ')}); run \`npm run build\``, { candidates });
}

/** The project dir: the nearest folder upwards that holds `.git`, or null outside a repository. */
export function findProjectRoot(cwd: string): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The project dir, or `cwd` itself outside a repository (for readers that only look). */
export function projectRoot(cwd: string): string {
  return findProjectRoot(cwd) ?? resolve(cwd);
}
