import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { dirname, join } from 'node:path';
import { openStore } from '../../lib/store/open-store';
import type { MemoryStore } from '../../lib/store/types';

/** A temporary project repository with isolated git config and runtime state dir. */
export interface TestRepo {
  dir: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  git: (args: string[]) => string;
  /** Opens the store, runs `fn`, closes it. */
  withStore: <T>(fn: (store: MemoryStore) => Promise<T>) => Promise<T>;
  write: (relPath: string, text: string) => string;
  cleanup: () => void;
}

/** A fresh repository with an identity and `commits` empty commits on main. */
export function makeTestRepo(commits = 1): TestRepo {
  const root = tempDir('capsule-resume-');
  const dir = join(root, 'project');
  const stateDir = join(root, 'state');
  mkdirSync(dir);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(root, '.gitconfig'),
    CAPSULE_STATE_DIR: stateDir,
    TZ: 'UTC',
  };
  const git = (args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.name', 'Test User']);
  git(['config', 'user.email', 'test@example.com']);
  for (let i = 0; i < commits; i += 1) git(['commit', '-q', '--allow-empty', '-m', `commit ${i}`]);
  return {
    dir,
    stateDir,
    env,
    git,
    withStore: async (fn) => {
      const store = await openStore({ cwd: dir, env });
      try {
        return await fn(store);
      } finally {
        await store.close();
      }
    },
    write: (relPath, text) => {
      const path = join(dir, relPath);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}
