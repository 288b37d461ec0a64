import { existsSync, mkdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { CapsuleError } from '../../errors/capsule-error';
import { forgetInstall, readInstalledFile, recordInstall } from '../../local-state/install-record';
import { isEmptyDir, writeAtomically } from '../install-file';
import { HOOK_EVENTS } from './hook-events';
import type { HookEventName } from '../host';
import { findOnPath, hookCommand, PATH_HOOK_COMMAND, readSettingsFile, runsPathCommand, settingsPath, type SettingsScope } from './settings-file';
import { addHooksToText, removeHooksFromText } from './settings-hooks-text';

/** Where install wrote, what it added and the commands it registered. */
export interface InstallResult {
  scope: SettingsScope;
  settings: string;
  added: HookEventName[];
  commands: Record<HookEventName, string>;
}

/**
 * Wires the six hooks into one Claude Code settings file by editing its text (its formatting
 * and key order stay), and records the text before and after in the runtime dir so uninstall
 * can restore the file byte for byte. A shared project file gets commands that name no path of
 * this machine; when those need `git-capsule-hook` on PATH and it is not there, nothing is
 * written (HOOK_COMMAND_NOT_ON_PATH).
 */
export function installSettingsHooks(opts: { scope: SettingsScope; projectDir: string; env: NodeJS.ProcessEnv; bundleDir: string; runtimeDir: string }): InstallResult {
  const path = settingsPath(opts.scope, opts);
  const { text } = readSettingsFile(path);
  const events = Object.keys(HOOK_EVENTS) as HookEventName[];
  const commands = Object.fromEntries(events.map((e) => [e, hookCommand(opts.scope, e, opts)])) as Record<HookEventName, string>;
  if (runsPathCommand(commands.Stop) && findOnPath(PATH_HOOK_COMMAND, opts.env.PATH) === null) {
    throw new CapsuleError(
      'HOOK_COMMAND_NOT_ON_PATH',
      `--project writes commands every clone runs, so they cannot name this machine's paths; git-capsule is not inside this project (${opts.bundleDir}) and ${PATH_HOOK_COMMAND} is not on PATH. ` +
        `Put it on PATH on every machine (npm install -g git-capsule, or PATH="<git-capsule>/bin:$PATH"), or add git-capsule to the project (npm install -D), then run install --project again; or share the plugin instead (docs/hooks.md)`,
      { bundleDir: opts.bundleDir },
    );
  }
  const { text: next, added } = addHooksToText(text, commands);
  if (added.length > 0) {
    const createdDirs = missingDirs(dirname(path));
    mkdirSync(dirname(path), { recursive: true });
    writeAtomically(path, next);
    recordInstall(opts.runtimeDir, path, text, next, createdDirs);
  }
  return { scope: opts.scope, settings: path, added, commands };
}

/**
 * Removes the capsule hooks from one settings file. When the file is still exactly what install
 * left, it gets back exactly what it was (a file install created is deleted, with the folders it
 * created when they are empty); when someone edited it since, only the capsule commands (and
 * the groups, events and `hooks` they leave empty) are cut out and every other byte stays.
 */
export function uninstallSettingsHooks(opts: { scope: SettingsScope; projectDir: string; env: NodeJS.ProcessEnv; runtimeDir: string | null }): { settings: string; removed: number; restored: 'exact' | 'cut' | 'nothing' } {
  const path = settingsPath(opts.scope, opts);
  const { text } = readSettingsFile(path);
  if (text === null) return { settings: path, removed: 0, restored: 'nothing' };
  const { text: cut, removed } = removeHooksFromText(text);
  const record = opts.runtimeDir === null ? null : readInstalledFile(opts.runtimeDir, path);
  if (opts.runtimeDir !== null) forgetInstall(opts.runtimeDir, path);
  if (removed === 0) return { settings: path, removed, restored: 'nothing' };
  if (record !== null && record.after === text) {
    if (record.before === null) {
      unlinkSync(path);
      for (const dir of record.createdDirs) if (isEmptyDir(dir)) rmdirSync(dir);
    } else writeAtomically(path, record.before);
    return { settings: path, removed, restored: 'exact' };
  }
  writeAtomically(path, cut);
  return { settings: path, removed, restored: 'cut' };
}

/** The folders that do not exist yet on the way to `dir`, deepest first. */
function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) out.push(d);
  return out;
}
