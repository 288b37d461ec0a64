import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { FALLBACK_IDENTITY } from '../../lib/git/git-env';
import { GitMemoryStore } from '../../lib/store/git-memory-store';
import { createGitRunner, type GitRunner } from '../../lib/git/git-runner';
import { openStore } from '../../lib/store/open-store';
import { capsuleText, cleanup, git, makeRepo, testId } from './support/temp-repo';

const NOW = new Date('2026-11-29T21:00:00Z');

/** A runner whose first fast-import is preceded by another writer's commit: a lost race, every time. */
function racingRunner(real: GitRunner, rival: () => Promise<void>): GitRunner & { imports: number } {
  let raced = false;
  const runner = {
    cwd: real.cwd,
    env: real.env,
    imports: 0,
    async run(args: readonly string[], opts?: Parameters<GitRunner['run']>[1]) {
      if (args.includes('fast-import')) {
        runner.imports += 1;
        if (!raced) {
          raced = true;
          await rival();
        }
      }
      return real.run(args, opts);
    },
  };
  return runner;
}

describe('compare-and-swap writes', () => {
  it.each([
    ['writeCapsule', (s: GitMemoryStore) => s.writeCapsule(capsuleText({ id: testId(2) }), { now: NOW }), 3],
    ['setStatus', (s: GitMemoryStore) => s.setStatus(testId(1), 'resumed', { writer: 'w', now: NOW }), 2],
  ] as const)('%s loses a race to another writer, retries from the new tip and keeps both', async (_name, op, capsules) => {
    const { dir, env } = makeRepo();
    const seed = await openStore({ cwd: dir, env });
    await seed.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    const rivalWrite = async () => {
      await seed.writeCapsule(capsuleText({ id: testId(3) }), { now: NOW });
    };
    const runner = racingRunner(createGitRunner({ cwd: dir, env }), rivalWrite);
    const store = new GitMemoryStore(runner, new CatFileBatch(runner), 'refs/heads/capsules', { identity: FALLBACK_IDENTITY });
    try {
      await op(store);
      expect(runner.imports).toBe(2);
      expect(git(dir, ['rev-list', '--count', 'capsules'], env)).toBe('4');
      expect(git(dir, ['log', '-1', '--skip=1', '--format=%s', 'capsules'], env)).toContain(testId(3));
      expect(await store.rebuildIndex({ now: NOW })).toMatchObject({ changed: false, count: capsules });
    } finally {
      await Promise.all([store.close(), seed.close()]);
      cleanup(dir);
    }
  });
});
