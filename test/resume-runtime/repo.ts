import { openStore } from '../../lib/store/open-store';
import type { MemoryStore } from '../../lib/store/types';
import { makeIsolatedRepo } from '../support/repo';

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
  const repo = makeIsolatedRepo({ prefix: 'capsule-resume-', name: 'project', commits });
  return {
    dir: repo.dir,
    stateDir: repo.stateDir,
    env: repo.env,
    git: repo.git,
    withStore: async (fn) => {
      const store = await openStore({ cwd: repo.dir, env: repo.env });
      try {
        return await fn(store);
      } finally {
        await store.close();
      }
    },
    write: repo.write,
    cleanup: repo.cleanup,
  };
}
