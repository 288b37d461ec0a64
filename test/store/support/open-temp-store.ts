import { openStore } from '../../../lib/store/open-store';
import type { MemoryStore } from '../../../lib/store/types';
import { cleanup, makeRepo } from './temp-repo';

/** A store on a fresh repository; `done()` closes it and removes the repository. */
export async function openTempStore(opts: Parameters<typeof makeRepo>[0] = {}): Promise<{ store: MemoryStore; dir: string; env: NodeJS.ProcessEnv; done: () => Promise<void> }> {
  const { dir, env } = makeRepo(opts);
  const store = await openStore({ cwd: dir, env });
  return {
    store,
    dir,
    env,
    done: async () => {
      await store.close();
      cleanup(dir);
    },
  };
}
