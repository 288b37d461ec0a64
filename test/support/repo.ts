import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { copyOfTemplate } from './repo-template';
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
 * has none), and its files (`files`) committed in the first one when given. The repository is
 * made once per test file and these options, and each call gets a copy (test/support/repo-template.ts);
 * files are written and committed in the copy, so their stat data in the index is the copy's own.
 */
export function makeIsolatedRepo(opts: { prefix?: string; name?: string; bare?: boolean; commits?: number; identity?: false | { name: string; email: string }; files?: Record<string, string> } = {}): IsolatedRepo {
  const name = opts.name ?? 'repo';
  const identity = opts.identity === false ? null : (opts.identity ?? { name: 'Test User', email: 'test@example.com' });
  const as = identity ? [] : ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com'];
  const commits = opts.bare ? 0 : (opts.commits ?? 1);
  const commit = (git: (args: readonly string[]) => string, i: number) => git([...as, 'commit', '-q', '--allow-empty', '-m', i === 0 ? 'initial' : `commit ${i}`]);
  // With files, the template stops before the first commit: the copy writes, adds and commits them.
  const withFiles = opts.files !== undefined && !opts.bare;
  const templateCommits = withFiles ? 0 : commits;
  const key = JSON.stringify({ name, bare: opts.bare === true, identity, templateCommits });
  const root = copyOfTemplate(key, opts.prefix ?? 'capsule-repo-', (at) => {
    const repo = layout(at, name);
    mkdirSync(repo.dir);
    mkdirSync(repo.home);
    repo.git(['init', '-q', '-b', 'main', ...(opts.bare ? ['--bare'] : [])]);
    if (identity) {
      repo.git(['config', 'user.name', identity.name]);
      repo.git(['config', 'user.email', identity.email]);
    }
    for (let i = 0; i < templateCommits; i += 1) commit(repo.git, i);
  });
  const { dir, stateDir, env, git } = layout(root, name);
  const write = (relPath: string, text: string) => {
    const path = join(dir, relPath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  if (withFiles) {
    for (const [path, text] of Object.entries(opts.files!)) write(path, text);
    git(['add', '-A']);
    for (let i = 0; i < commits; i += 1) commit(git, i);
  }
  return { root, dir, stateDir, env, git, write, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Where a repository made under `root` keeps its work tree, HOME and runtime state, and the git that runs there. */
function layout(root: string, name: string) {
  const dir = join(root, name);
  const stateDir = join(root, 'state');
  const home = join(root, 'home');
  const env = isolatedGitEnv({ home, stateDir });
  return { dir, stateDir, home, env, git: (args: readonly string[]) => runGit(dir, args, env) };
}
