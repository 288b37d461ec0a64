import { existsSync, realpathSync } from 'node:fs';
import { chmod, lstat, readFile, rename, unlink, writeFile, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';
import type { GitRunner } from '../git/git-runner';
import { CHAINED_SUFFIX, DEFAULT_CLI_COMMAND, GIT_HOOK_EVENTS, GIT_HOOK_MARKER, renderGitHook, shellQuote, type GitHookEvent } from './git-hook-script';

/** The state of one hook slot: ours (and whether it chains the user's), the user's own, or empty. */
export interface GitHookState {
  event: GitHookEvent;
  path: string;
  state: 'installed' | 'foreign' | 'absent';
  /** True when the user's previous hook sits beside ours as `<event>.capsule-chained`. */
  chained: boolean;
}

/** Where the hooks live, whether sync runs from them, and each slot's state. */
export interface GitHooksReport {
  hooksDir: string;
  autoSync: boolean;
  hooks: GitHookState[];
}

/**
 * The directory git runs hooks from, honouring `core.hooksPath` (relative paths resolve against
 * the work tree top, as git does). Throws HOOKS_DISABLED when hooks are switched off (/dev/null).
 */
export async function resolveHooksDir(git: GitRunner): Promise<string> {
  const out = await git.run(['rev-parse', '--path-format=absolute', '--git-path', 'hooks']);
  const dir = out.stdout.trim();
  if (dir === '/dev/null') {
    throw new CapsuleError('HOOKS_DISABLED', 'git hooks are switched off here (core.hooksPath is /dev/null); set core.hooksPath to a directory, then install again', { hooksDir: dir });
  }
  return dir;
}

/**
 * Installs the pre-push, post-merge and post-rewrite hooks and sets `capsule.autoSync true` in the
 * repository's config. A hook the user already has is moved aside to `<event>.capsule-chained`
 * (bytes and mode untouched) and called first by ours. Installing again only refreshes our
 * files. Throws HOOKS_DISABLED, HOOK_CHAIN_OCCUPIED (a leftover chained file would be overwritten).
 *
 * @example await installGitHooks(git, { cliCommand: "'/usr/bin/node' '/opt/gc/dist/git-capsule.js'" });
 */
export async function installGitHooks(git: GitRunner, opts: { cliCommand?: string } = {}): Promise<GitHooksReport> {
  const hooksDir = await resolveHooksDir(git);
  await mkdir(hooksDir, { recursive: true });
  const before = await Promise.all(GIT_HOOK_EVENTS.map((e) => readHookState(hooksDir, e)));
  for (const hook of before) {
    if (hook.state === 'foreign' && hook.chained) {
      throw new CapsuleError('HOOK_CHAIN_OCCUPIED', `cannot chain ${hook.path}: ${hook.path}${CHAINED_SUFFIX} already exists; move one of them away, then install again`, { path: hook.path });
    }
  }
  for (const hook of before) {
    if (hook.state === 'foreign') await rename(hook.path, hook.path + CHAINED_SUFFIX);
    await writeFile(hook.path, renderGitHook(hook.event, opts.cliCommand));
    await chmod(hook.path, 0o755);
  }
  await git.run(['config', '--local', 'capsule.autoSync', 'true']);
  return gitHooksStatus(git);
}

/**
 * Removes our hooks and puts back what was there: the chained user hook returns to its name
 * byte-identical with its mode; a slot we did not fill is left alone. Unsets `capsule.autoSync`.
 * Throws HOOKS_DISABLED.
 */
export async function uninstallGitHooks(git: GitRunner): Promise<GitHooksReport> {
  const hooksDir = await resolveHooksDir(git);
  for (const event of GIT_HOOK_EVENTS) {
    const hook = await readHookState(hooksDir, event);
    if (hook.state !== 'installed') continue;
    await unlink(hook.path);
    if (hook.chained) await rename(hook.path + CHAINED_SUFFIX, hook.path);
  }
  // Exit 5 means the key was not set: nothing to undo.
  await git.run(['config', '--local', '--unset-all', 'capsule.autoSync'], { okExitCodes: [5] });
  return gitHooksStatus(git);
}

/** Reports where the hooks live, whether `capsule.autoSync` is on, and each slot. Throws HOOKS_DISABLED. */
export async function gitHooksStatus(git: GitRunner): Promise<GitHooksReport> {
  const hooksDir = await resolveHooksDir(git);
  const hooks = await Promise.all(GIT_HOOK_EVENTS.map((e) => readHookState(hooksDir, e)));
  const out = await git.run(['config', '--bool', 'capsule.autoSync'], { okExitCodes: [1] });
  return { hooksDir, autoSync: out.stdout.trim() === 'true', hooks };
}

/**
 * The command installed hooks run: this node and the bundled CLI by absolute path, so a hook
 * works without `git-capsule` on PATH (GUI clients run hooks with a minimal PATH); `git capsule`
 * when not running from the bundle (e.g. under a test runner) and no path was given.
 */
export function bundledCliCommand(explicit?: string): string {
  // Only the bundled CLI itself qualifies: under a test runner or another entry, require.main is something else.
  const script = explicit ?? require.main?.filename;
  if (!script || (explicit === undefined && basename(script) !== 'git-capsule.js') || !existsSync(script)) return DEFAULT_CLI_COMMAND;
  return `${shellQuote(process.execPath)} ${shellQuote(realpathSync(script))}`;
}

async function readHookState(hooksDir: string, event: GitHookEvent): Promise<GitHookState> {
  const path = join(hooksDir, event);
  const chained = await exists(path + CHAINED_SUFFIX);
  if (!(await exists(path))) return { event, path, state: 'absent', chained };
  const head = await readHead(path);
  return { event, path, state: head.includes(GIT_HOOK_MARKER) ? 'installed' : 'foreign', chained };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** The first bytes of a hook, enough to find our marker on its second line. */
async function readHead(path: string): Promise<string> {
  try {
    return (await readFile(path)).subarray(0, 200).toString('utf8');
  } catch (err) {
    // A dangling symlink or a directory is the user's, never ours.
    if (['ENOENT', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return '';
    throw err;
  }
}
