import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CapsuleError } from '../../errors/capsule-error';
import type { HookEventName } from '../host';
import { HOOK_EVENTS } from './hook-events';

/** Appended to every hook command install writes, so uninstall removes exactly those and nothing else. */
export const HOOK_MARKER = '--capsule-hook';

type HookEntry = { type?: string; command?: string; timeout?: number; [k: string]: unknown };
type HookGroup = { matcher?: string; hooks?: HookEntry[]; [k: string]: unknown };
/** A Claude Code settings file: only `hooks` is touched; every other key is kept as read. */
export type ClaudeSettings = { hooks?: Record<string, HookGroup[]>; [k: string]: unknown };

/** The settings file install edits: the project's `.claude/settings.json` or the user's. */
export function settingsPath(opts: { user: boolean; projectDir: string; home: string | undefined }): string {
  if (!opts.user) return join(opts.projectDir, '.claude', 'settings.json');
  if (!opts.home) throw new CapsuleError('NO_HOME', 'cannot find the user settings: HOME is not set; set HOME or install per project (without --user)');
  return join(opts.home, '.claude', 'settings.json');
}

/**
 * Reads a settings file; a missing file is `{}`. Invalid JSON is an error (SETTINGS_INVALID):
 * install never overwrites a file it cannot read back.
 */
export function readSettings(path: string): ClaudeSettings {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as ClaudeSettings;
  } catch (err) {
    throw new CapsuleError('SETTINGS_INVALID', `${path} is not valid JSON (${(err as Error).message}); fix it by hand, then run install again`, { path }, { cause: err });
  }
  throw new CapsuleError('SETTINGS_INVALID', `${path} must hold a JSON object; fix it by hand, then run install again`, { path });
}

/** Writes settings with two-space indentation, through a temp file. */
export function writeSettings(path: string, settings: ClaudeSettings): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.capsule.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temp, path);
}

/** The command install registers for one event. */
export function hookCommand(bundleDir: string, event: HookEventName): string {
  return `node "${join(bundleDir, `${HOOK_EVENTS[event].file}.js`)}" ${HOOK_MARKER}`;
}

/** True for a command install wrote (it carries the marker). */
export function isCapsuleCommand(command: unknown): boolean {
  return typeof command === 'string' && command.trimEnd().endsWith(HOOK_MARKER);
}

/** Adds one group per event unless a capsule command is already there; returns the events added. */
export function addCapsuleHooks(settings: ClaudeSettings, bundleDir: string): { settings: ClaudeSettings; added: HookEventName[] } {
  const hooks: Record<string, HookGroup[]> = { ...(settings.hooks ?? {}) };
  const added: HookEventName[] = [];
  for (const event of Object.keys(HOOK_EVENTS) as HookEventName[]) {
    const groups = Array.isArray(hooks[event]) ? [...hooks[event]!] : [];
    if (groups.some((g) => g.hooks?.some((h) => isCapsuleCommand(h.command)))) continue;
    groups.push({ hooks: [{ type: 'command', command: hookCommand(bundleDir, event), timeout: HOOK_EVENTS[event].hostTimeoutSec }] });
    hooks[event] = groups;
    added.push(event);
  }
  return { settings: { ...settings, hooks }, added };
}

/** Removes exactly the capsule commands (and the groups and events they leave empty); returns how many. */
export function removeCapsuleHooks(settings: ClaudeSettings): { settings: ClaudeSettings; removed: number } {
  if (!settings.hooks) return { settings, removed: 0 };
  let removed = 0;
  const hooks: Record<string, HookGroup[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept: HookGroup[] = [];
    for (const group of groups) {
      const entries = Array.isArray(group.hooks) ? group.hooks : [];
      const remaining = entries.filter((h) => !isCapsuleCommand(h.command));
      removed += entries.length - remaining.length;
      if (remaining.length === entries.length) kept.push(group);
      else if (remaining.length > 0) kept.push({ ...group, hooks: remaining });
    }
    if (kept.length > 0) hooks[event] = kept;
  }
  const { hooks: _old, ...rest } = settings;
  return { settings: Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest, removed };
}

/** The events whose capsule command is registered in these settings. */
export function wiredEvents(settings: ClaudeSettings): HookEventName[] {
  return (Object.keys(HOOK_EVENTS) as HookEventName[]).filter((event) =>
    (settings.hooks?.[event] ?? []).some((g) => Array.isArray(g.hooks) && g.hooks.some((h) => isCapsuleCommand(h.command))),
  );
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

/** The project dir: the nearest folder upwards that holds `.git`, or `cwd` itself. */
export function projectRoot(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}
