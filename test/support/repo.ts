import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tempDir } from './temp-dirs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * An environment that keeps every git call away from the developer's own config: no system
 * file, a global file under `home` (empty unless a test writes it), the runtime state diverted
 * to `stateDir`, UTC. The one place tests decide what git sees.
 */
export function isolatedGitEnv(where: { home: string; stateDir?: string }, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: where.home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(where.home, '.gitconfig'),
    ...(where.stateDir ? { CAPSULE_STATE_DIR: where.stateDir } : {}),
    TZ: 'UTC',
    ...extra,
  };
}

/** For reading a repository's state in assertions: no system or global config, no temp folder. */
export const READ_ONLY_GIT_ENV: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tmpdir(), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', TZ: 'UTC' };

/** Runs the real git in `cwd` and returns its trimmed stdout. */
export function runGit(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = READ_ONLY_GIT_ENV): string {
  return execFileSync('git', args as string[], { cwd, env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
}

/** A temporary repository for one test, with everything it needs beside it under one root. */
export interface IsolatedRepo {
  /** The temp folder holding the repository, its HOME and its runtime state; `cleanup` removes it. */
  root: string;
  dir: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  git: (args: readonly string[]) => string;
  /** Writes a file in the work tree (folders made as needed); returns its path. */
  write: (relPath: string, text: string) => string;
  cleanup: () => void;
}

/**
 * A real repository made with the real git CLI, isolated from the developer's config: `main`,
 * an identity unless `identity: false`, `commits` empty commits (default 1; a bare repository
 * has none), and its files (`files`) committed in the first one when given.
 */
export function makeIsolatedRepo(opts: { prefix?: string; name?: string; bare?: boolean; commits?: number; identity?: false | { name: string; email: string }; files?: Record<string, string> } = {}): IsolatedRepo {
  const root = tempDir(opts.prefix ?? 'capsule-repo-');
  const dir = join(root, opts.name ?? 'repo');
  const stateDir = join(root, 'state');
  const home = join(root, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  const env = isolatedGitEnv({ home, stateDir });
  const git = (args: readonly string[]) => runGit(dir, args, env);
  const write = (relPath: string, text: string) => {
    const path = join(dir, relPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  git(['init', '-q', '-b', 'main', ...(opts.bare ? ['--bare'] : [])]);
  const identity = opts.identity === false ? null : (opts.identity ?? { name: 'Test User', email: 'test@example.com' });
  if (identity) {
    git(['config', 'user.name', identity.name]);
    git(['config', 'user.email', identity.email]);
  }
  if (!opts.bare) {
    for (const [path, text] of Object.entries(opts.files ?? {})) write(path, text);
    if (opts.files) git(['add', '-A']);
    const as = identity ? [] : ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com'];
    for (let i = 0; i < (opts.commits ?? 1); i += 1) git([...as, 'commit', '-q', '--allow-empty', '-m', i === 0 ? 'initial' : `commit ${i}`]);
  }
  return { root, dir, stateDir, env, git, write, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
