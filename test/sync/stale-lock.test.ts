import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isCapsuleError } from '../../lib/errors/capsule-error';
import { execFileSync } from 'node:child_process';
import { capsuleText, fsck, git, makeTrio, refOf, REMOTE_REF, removeTrio, statuses, sync, testId, writeCapsules, type Trio } from './sync-trio';

// A sync SIGKILLed inside `git fetch`, `git push` or a ref update leaves git's `<ref>.lock`
// behind (git never removes another process's lock). The next sync must get past it once it is
// stale, wherever it is: this clone's tracking ref, its memory ref, or a path remote's own ref.

let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

/** Plants a lock file `ageMs` old, as a killed git leaves it. */
function plantLock(path: string, ageMs = 60_000): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '');
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(path, at, at);
  return path;
}

describe('syncMemory after a killed sync', () => {
  it('fetches past a stale lock on the remote-tracking ref', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    const lock = plantLock(join(trio.b, '.git', 'refs', 'capsule-remotes', 'origin', 'capsules', 'capsules.lock'));
    const report = await sync(trio.b, trio.env);
    expect(report).toMatchObject({ action: 'fast-forward', incoming: { capsules: 1 } });
    expect(refOf(trio.b, trio.env)).toBe(refOf(trio.a, trio.env));
    expect(existsSync(lock)).toBe(false);
  });

  it('fast-forwards past a stale lock on its own memory ref', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.b, trio.env, []); // nothing local yet: the ref is created by the fast-forward
    const lock = plantLock(join(trio.b, '.git', 'refs', 'heads', 'capsules.lock'));
    expect(await sync(trio.b, trio.env)).toMatchObject({ action: 'fast-forward' });
    expect(refOf(trio.b, trio.env)).toBe(refOf(trio.a, trio.env));
    expect(existsSync(lock)).toBe(false);
  });

  it('merges past a stale lock on its own memory ref', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.b, trio.env, [capsuleText(2)]);
    const lock = plantLock(join(trio.b, '.git', 'refs', 'heads', 'capsules.lock'));
    expect(await sync(trio.b, trio.env)).toMatchObject({ action: 'merge', pushed: true });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(refOf(trio.b, trio.env));
    expect(existsSync(lock)).toBe(false);
  });

  it("pushes past a stale lock a killed receive-pack left on a path remote's ref", async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    const lock = plantLock(join(trio.remote, 'refs', 'capsules', 'capsules.lock'));
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'push', pushed: true });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(refOf(trio.a, trio.env));
    expect(existsSync(lock)).toBe(false);
  });

  it("pushes without moving any refs/remotes copy, so a lock left there is not its business", async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    const lock = plantLock(join(trio.a, '.git', 'refs', 'remotes', 'origin', 'capsules.lock'));
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'push', pushed: true });
    expect(git(trio.a, ['for-each-ref', '--format=%(refname)', 'refs/remotes/'], trio.env).split('\n')).not.toContainEqual(expect.stringContaining('capsules'));
    expect(existsSync(lock)).toBe(true);
  });

  it('waits for a young lock to go stale rather than fail or remove it at once', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    const lock = plantLock(join(trio.remote, 'refs', 'capsules', 'capsules.lock'), 0);
    const lines: string[] = [];
    expect(await sync(trio.a, trio.env, { progress: (l) => lines.push(l) })).toMatchObject({ action: 'push', pushed: true });
    expect(lines).toContainEqual(expect.stringContaining(`${lock} is held; waiting`));
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(refOf(trio.a, trio.env));
    expect(existsSync(lock)).toBe(false);
  }, 30_000);

  it("fetches a remote tip it holds only as a commit a killed fetch left, without its trees", async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    await sync(trio.a, trio.env);
    // unpack-objects writes commits first: a kill right after leaves the commit, loose, and no tree.
    const tip = refOf(trio.a, trio.env)!;
    const commit = execFileSync('git', ['cat-file', 'commit', tip], { cwd: trio.a, env: trio.env });
    execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--literally', '--stdin'], { cwd: trio.b, env: trio.env, input: new Uint8Array(commit) });
    expect(git(trio.b, ['cat-file', '-t', tip], trio.env)).toBe('commit');
    expect(await sync(trio.b, trio.env)).toMatchObject({ action: 'fast-forward', incoming: { capsules: 1 } });
    expect(fsck(trio.b, trio.env)).toEqual({ code: 0, output: expect.any(String) });
    expect(await statuses(trio.b, trio.env)).toEqual({ [testId(1)]: 'active', [testId(2)]: 'active' });
  });

  it('still refuses an unreachable remote at once', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    const err = await sync(trio.a, trio.env, { remote: join(trio.root, 'missing.git') }).catch((e: unknown) => e);
    expect(isCapsuleError(err, 'REMOTE_UNREACHABLE')).toBe(true);
  });
});
