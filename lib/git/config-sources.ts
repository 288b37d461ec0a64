import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';

/** One line of `git config --null --list --show-origin`. */
export interface ConfigEntry {
  /** `file:<path>` (relative paths are relative to git's working directory), `command line:`, … */
  origin: string;
  /** Section and key lower-cased, as git prints them; a subsection keeps its case. */
  key: string;
  value: string;
}

/** The arguments of the one config read: every key, with the file each came from. */
export const CONFIG_LIST_ARGS: readonly string[] = ['config', '--null', '--list', '--show-origin'];

/** Parses the output of `git config --null --list --show-origin`. */
export function parseConfigList(stdout: string): ConfigEntry[] {
  const fields = stdout.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const record = fields[i + 1]!;
    const nl = record.indexOf('\n');
    entries.push({ origin: fields[i]!, key: nl < 0 ? record : record.slice(0, nl), value: nl < 0 ? '' : record.slice(nl + 1) });
  }
  return entries;
}

/** What decided the config: the files git read or may read, or why that cannot be known for sure. */
export type ConfigSources = { files: string[] } | { uncertain: string };

/**
 * Every file whose content or existence decides what `git config --list` prints for this
 * repository: the system file (its path as git reports it), the global files, the repository's
 * `config` and `config.worktree`, every file a value came from, and every include target
 * (conditional ones too: stat'ing a file git skipped costs nothing). A source whose effect does
 * not show in files (an `onbranch:` include follows HEAD; `%(prefix)` and `~user` paths) makes
 * the whole set uncertain, and then nothing may be cached.
 */
export function configSources(entries: readonly ConfigEntry[], where: { env: NodeJS.ProcessEnv; gitDir: string; commonDir: string; workDir: string; systemFile: string | null }): ConfigSources {
  const { env } = where;
  const files = new Set<string>([join(where.commonDir, 'config'), join(where.gitDir, 'config.worktree')]);
  if (where.systemFile !== null) files.add(where.systemFile);
  if (env.GIT_CONFIG_GLOBAL) files.add(resolve(where.workDir, env.GIT_CONFIG_GLOBAL));
  else if (env.HOME) {
    files.add(join(env.HOME, '.gitconfig'));
    files.add(join(env.XDG_CONFIG_HOME || join(env.HOME, '.config'), 'git', 'config'));
  } else return { uncertain: 'HOME is not set' };
  for (const entry of entries) {
    let originFile: string | null = null;
    if (entry.origin.startsWith('file:')) {
      originFile = resolve(where.workDir, entry.origin.slice('file:'.length));
      files.add(originFile);
    } else if (entry.origin !== 'command line:') return { uncertain: `a value comes from ${entry.origin}` };
    const include = includeTarget(entry, originFile, env);
    if (include === null) continue;
    if ('uncertain' in include) return include;
    files.add(include.file);
  }
  return { files: [...files] };
}

function includeTarget(entry: ConfigEntry, originFile: string | null, env: NodeJS.ProcessEnv): { file: string } | { uncertain: string } | null {
  const isInclude = entry.key === 'include.path' || (entry.key.startsWith('includeif.') && entry.key.endsWith('.path'));
  if (!isInclude) return null;
  if (entry.key.startsWith('includeif.onbranch:')) return { uncertain: 'an onbranch: include depends on HEAD' };
  const path = entry.value;
  if (path.startsWith('~/')) return env.HOME ? { file: join(env.HOME, path.slice(2)) } : { uncertain: 'HOME is not set' };
  if (path.startsWith('~') || path.startsWith('%(')) return { uncertain: `include path ${path}` };
  if (isAbsolute(path)) return { file: path };
  // Relative include paths are relative to the file that names them.
  return originFile === null ? { uncertain: 'a relative include outside a file' } : { file: resolve(dirname(originFile), path) };
}

/**
 * The environment that decides which config git reads (GIT_*, HOME, XDG_CONFIG_HOME, and the git
 * that PATH finds, which decides the system file), as one string. The git, not PATH itself: the
 * user's shell and the client's hooks seldom have the same PATH, and a capsule written from the
 * shell would otherwise leave the next hook a cold cache (three more git processes).
 */
export function configEnvFingerprint(env: NodeJS.ProcessEnv): string {
  const keys = Object.keys(env).filter((k) => k.startsWith('GIT_') || k === 'HOME' || k === 'XDG_CONFIG_HOME').sort();
  const git = gitOnPath(env);
  return JSON.stringify([...keys.map((k) => [k, env[k]]), git === null ? ['PATH', env.PATH] : ['git', git]]);
}

/**
 * The `git` a process started with this environment runs: the first executable file named git in
 * a PATH folder, as the system's exec lookup takes it. Null where that lookup is not this simple
 * (Windows: PATHEXT, the current folder first) or nothing is found; the caller then keys by PATH.
 */
export function gitOnPath(env: NodeJS.ProcessEnv): string | null {
  if (process.platform === 'win32' || !env.PATH) return null;
  for (const dir of env.PATH.split(delimiter)) {
    // An empty entry means the current folder, which differs between callers: not this simple.
    if (dir === '' || !isAbsolute(dir)) return null;
    const candidate = join(dir, 'git');
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // Not here, or not executable: the lookup goes on, as execvp's does.
    }
  }
  return null;
}

/**
 * The pseudo-key under which capsuleValues keeps the names of the configured remotes, as a JSON
 * list (no config key starts with a space). Names only: a remote's URL may carry a credential,
 * and the values are cached on disk.
 */
export const REMOTE_NAMES_KEY = ' remote names';

/** Whether sync signs what it publishes (lib/sync/publish-signing.ts): the key's name or public half, never a secret. */
export const SIGNING_KEYS: readonly string[] = ['user.signingkey', 'gpg.format'];

/**
 * The values git-capsule reads from the config (last wins, as git does): capsule.*, user.name,
 * user.email, SIGNING_KEYS, every `branch.<name>.remote` and the names of the remotes
 * (REMOTE_NAMES_KEY), which sync picks its remote from without starting git. `git config --list`
 * already lowers a key's section and variable; a branch's or remote's name keeps its case.
 */
export function capsuleValues(entries: readonly ConfigEntry[]): Record<string, string> {
  const values: Record<string, string> = {};
  const remotes = new Set<string>();
  for (const { key, value } of entries) {
    const lower = key.toLowerCase();
    if (lower.startsWith('capsule.') || lower === 'user.name' || lower === 'user.email' || SIGNING_KEYS.includes(lower)) values[lower] = value;
    else if (lower.startsWith('branch.') && lower.endsWith('.remote') && key.length > 'branch..remote'.length) values[key] = value;
    else if (lower.startsWith('remote.')) {
      // `git remote` lists every name that has any `remote.<name>.<var>`; `remote.pushdefault` has no name.
      const name = key.slice('remote.'.length, key.lastIndexOf('.'));
      if (key.lastIndexOf('.') > 'remote.'.length) remotes.add(name);
    }
  }
  if (remotes.size > 0) values[REMOTE_NAMES_KEY] = JSON.stringify([...remotes]);
  return values;
}

/** The remote names capsuleValues found, in config order; null when it found none (git's other sources, .git/remotes/, may still hold some). */
export function remoteNamesIn(values: Readonly<Record<string, string>>): string[] | null {
  const list = values[REMOTE_NAMES_KEY];
  if (list === undefined) return null;
  try {
    const names: unknown = JSON.parse(list);
    return Array.isArray(names) && names.every((n) => typeof n === 'string') ? names : null;
  } catch {
    return null;
  }
}
