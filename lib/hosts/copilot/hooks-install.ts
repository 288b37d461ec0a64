import { existsSync, mkdirSync, readFileSync, rmdirSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { forgetInstall, readInstalledFile, recordInstall } from '../../local-state/install-record';
import { isEmptyDir, writeAtomically } from '../install-file';
import { COPILOT_HOOK_EVENTS } from './hook-events';
import { copilotHooksFile } from './hooks-file';

/** Where a Copilot registration goes: `user` (every folder, no trust step) or `project` (committed, loaded once the folder is trusted). */
export type CopilotScope = 'user' | 'project';

/** The file git-capsule owns in a hooks folder; Copilot loads every `*.json` there, so the user's own files are never edited. */
export const COPILOT_HOOKS_FILE = 'git-capsule.json';

/** The registration's path: `${COPILOT_HOME:-~/.copilot}/hooks/git-capsule.json`, or `<project>/.github/hooks/git-capsule.json`. */
export function copilotHooksPath(scope: CopilotScope, opts: { projectDir: string; env: NodeJS.ProcessEnv }): string {
  if (scope === 'project') return join(opts.projectDir, '.github', 'hooks', COPILOT_HOOKS_FILE);
  const home = opts.env.COPILOT_HOME || join(opts.env.HOME || homedir(), '.copilot');
  return join(home, 'hooks', COPILOT_HOOKS_FILE);
}

/**
 * The command for one event's bundle. User level names this machine's bundle; a committed
 * project file names none: the bundle relative to the project root when git-capsule is inside
 * the project (Copilot runs hook commands in the project root), else `git-capsule-hook` from
 * PATH (which drops `--host`: the camelCase payload alone says Copilot, lib/hooks/pick-host.ts).
 */
export function copilotHookCommand(scope: CopilotScope, file: string, opts: { bundleDir: string; projectDir: string }): string {
  const bundle = join(opts.bundleDir, `${file}.js`).split('\\').join('/');
  if (scope === 'user') return `node "${bundle}"`;
  const inside = relative(resolve(opts.projectDir), resolve(opts.bundleDir));
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) return `node "${inside.split('\\').join('/')}/${file}.js"`;
  return `git-capsule-hook ${file}`;
}

/** The registration text for a scope, as install writes it. */
export function copilotHooksText(scope: CopilotScope, opts: { bundleDir: string; projectDir: string }): string {
  return `${JSON.stringify(copilotHooksFile((file) => copilotHookCommand(scope, file, opts)), null, 2)}\n`;
}

/**
 * Writes git-capsule's own hooks file for the Copilot CLI (the user's other hook files are not
 * touched: Copilot runs them all, side by side). What was at that path before is recorded in
 * the runtime dir, so uninstall puts it back byte for byte. Running it twice writes nothing.
 */
export function installCopilotHooks(opts: { scope: CopilotScope; projectDir: string; env: NodeJS.ProcessEnv; bundleDir: string; runtimeDir: string }): { scope: CopilotScope; hooks: string; written: boolean; events: string[] } {
  const path = copilotHooksPath(opts.scope, opts);
  const text = copilotHooksText(opts.scope, opts);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const events = Object.keys(COPILOT_HOOK_EVENTS);
  if (before === text) return { scope: opts.scope, hooks: path, written: false, events };
  const createdDirs: string[] = [];
  for (let d = dirname(path); !existsSync(d) && dirname(d) !== d; d = dirname(d)) createdDirs.push(d);
  mkdirSync(dirname(path), { recursive: true });
  writeAtomically(path, text);
  recordInstall(opts.runtimeDir, path, before, text, createdDirs);
  return { scope: opts.scope, hooks: path, written: true, events };
}

/**
 * Removes git-capsule's Copilot hooks file: still as install left it, the path gets back what
 * was there before (nothing: the file and the folders install made go); edited since, it is
 * left alone and said so.
 */
export function uninstallCopilotHooks(opts: { scope: CopilotScope; projectDir: string; env: NodeJS.ProcessEnv; runtimeDir: string | null }): { hooks: string; restored: 'exact' | 'removed' | 'edited' | 'nothing' } {
  const path = copilotHooksPath(opts.scope, opts);
  if (!existsSync(path)) return { hooks: path, restored: 'nothing' };
  const text = readFileSync(path, 'utf8');
  const record = opts.runtimeDir === null ? null : readInstalledFile(opts.runtimeDir, path);
  if (record !== null && record.after === text) {
    if (record.before === null) {
      unlinkSync(path);
      for (const dir of record.createdDirs) if (isEmptyDir(dir)) rmdirSync(dir);
    } else writeAtomically(path, record.before);
    forgetInstall(opts.runtimeDir!, path);
    return { hooks: path, restored: 'exact' };
  }
  // No record (another clone installed it, or the runtime dir was reset): removed when every command in it is ours.
  if (onlyOurs(text)) {
    unlinkSync(path);
    return { hooks: path, restored: 'removed' };
  }
  return { hooks: path, restored: 'edited' };
}

/** True when the file parses and every command it registers runs a git-capsule bundle for Copilot. */
function onlyOurs(text: string): boolean {
  try {
    const hooks = (JSON.parse(text) as { hooks?: Record<string, Array<{ bash?: unknown }>> }).hooks ?? {};
    const commands = Object.values(hooks).flat().map((h) => h?.bash);
    return commands.length > 0 && commands.every((c) => typeof c === 'string' && c.endsWith(' --host copilot'));
  } catch {
    return false;
  }
}
