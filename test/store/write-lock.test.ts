import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireWriteLock, writeLockPath } from '../../lib/store/write-lock';
import { cleanup, tempDir } from './support/temp-repo';

describe('acquireWriteLock', () => {
  let dir: string;
  beforeEach(() => (dir = tempDir('capsule-lock-')));
  afterEach(() => cleanup(dir));

  it('creates the lock file and removes it on release', async () => {
    const path = writeLockPath(dir, '/repo/.git', 'refs/heads/capsules');
    const release = await acquireWriteLock(path);
    expect(existsSync(path)).toBe(true);
    await release();
    expect(existsSync(path)).toBe(false);
  });

  it('makes a second writer wait until the first releases', async () => {
    const path = join(dir, 'locks', 'x.lock');
    const order: string[] = [];
    const first = await acquireWriteLock(path);
    const second = acquireWriteLock(path).then((release) => (order.push('second'), release));
    await new Promise((r) => setTimeout(r, 50));
    order.push('first-release');
    await first();
    await (await second)();
    expect(order).toEqual(['first-release', 'second']);
  });

  it('takes over a lock left by a writer that died', async () => {
    const path = join(dir, 'locks', 'x.lock');
    mkdirSync(join(dir, 'locks'));
    writeFileSync(path, '999999999 0\n');
    const release = await acquireWriteLock(path, { waitMs: 2000, staleMs: 60_000 });
    expect(existsSync(path)).toBe(true);
    await release();
  });

  it('takes over a lock older than the stale bound even if its pid is alive', async () => {
    const path = join(dir, 'locks', 'x.lock');
    mkdirSync(join(dir, 'locks'));
    writeFileSync(path, `${process.pid} 0\n`);
    utimesSync(path, new Date(0), new Date(0));
    const release = await acquireWriteLock(path, { waitMs: 2000, staleMs: 1000 });
    await release();
    expect(existsSync(path)).toBe(false);
  });

  it('gives up waiting after its bound and lets the compare-and-swap protect the write', async () => {
    const path = join(dir, 'locks', 'x.lock');
    const held = await acquireWriteLock(path);
    const release = await acquireWriteLock(path, { waitMs: 100, staleMs: 60_000 });
    await release();
    expect(existsSync(path)).toBe(true);
    await held();
  });
});
