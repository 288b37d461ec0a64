import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { runCli } from '../support/run-cli';
import { capsuleText, git, makeTrio, refOf, REMOTE_REF, removeTrio, sync, testId, writeCapsules, type Trio } from './sync-trio';
import { capsuleDir } from '../../lib/store/memory-format';

// Issue 36, section 3: tree entries no capsule layout holds (a symbolic link, a gitlink, a path
// 10,000 folders deep), crafted with git plumbing as anyone with push access could, are left out
// of what sync takes in and of what it publishes, and the report says which. A 10,000-deep path
// makes every git that enforces core.maxTreeDepth (git >= 2.44) refuse the tree, so a memory
// branch carrying it could never be pushed to such a host again.
const REF = 'refs/heads/capsules';
let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
  // Thousands of loose trees would start git's background gc in the middle of the next test's timing: not what this file checks.
  for (const dir of [trio.a, trio.remote]) git(dir, ['config', 'gc.auto', '0'], trio.env);
});
afterEach(() => removeTrio(trio));

/**
 * Writes a chain of `depth` folders `d/d/…/d/x` into `gitDir`'s object store as loose objects
 * (ids computed here, innermost first) and returns the top tree. What `git mktree` would write,
 * one tree at a time; git's own tools take a minute for 10,000 levels on this machine.
 */
function deepTree(gitDir: string, depth: number): string {
  const write = (type: string, body: Uint8Array): string => {
    const object = bytes(`${type} ${body.length}\0`, body);
    const id = createHash('sha1').update(object).digest('hex');
    mkdirSync(join(gitDir, 'objects', id.slice(0, 2)), { recursive: true });
    writeFileSync(join(gitDir, 'objects', id.slice(0, 2), id.slice(2)), deflateSync(object) as unknown as Uint8Array);
    return id;
  };
  let child = write('tree', bytes('100644 x\0', rawId(write('blob', bytes('deep\n')))));
  for (let i = 1; i < depth; i += 1) child = write('tree', bytes('40000 d\0', rawId(child)));
  return child;
}

// Uint8Array rather than Buffer: @types/node 20.9 and TypeScript 5.9 disagree about Buffer's ArrayBuffer.
function bytes(...parts: Array<string | Uint8Array>): Uint8Array {
  const encoded = parts.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : p));
  const out = new Uint8Array(encoded.reduce((n, p) => n + p.length, 0));
  encoded.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}
const rawId = (id: string) => Uint8Array.from(id.match(/../g)!.map((h) => parseInt(h, 16)));

/** `tip`'s tree plus a symbolic link `link`, a gitlink `vendor` and a `depth`-deep chain under `deep/`: built with plumbing, as porcelain never would. */
function hostileTree(dir: string, gitDir: string, tip: string, depth: number): string {
  const target = git(dir, ['hash-object', '-w', '--stdin'], trio.env, '/etc/passwd');
  const extra = [`120000 blob ${target}\tlink`, `160000 commit ${tip}\tvendor`, `040000 tree ${deepTree(gitDir, depth)}\tdeep`];
  return git(dir, ['mktree'], trio.env, `${git(dir, ['ls-tree', tip], trio.env)}\n${extra.join('\n')}\n`);
}

/** A commit of `hostileTree` on top of `tip`, in `dir` (its objects in `gitDir`). */
function hostileCommit(dir: string, gitDir: string, tip: string, depth: number): string {
  return git(dir, ['-c', 'user.name=Mallory', '-c', 'user.email=m@example.com', 'commit-tree', hostileTree(dir, gitDir, tip, depth), '-p', tip, '-m', 'add'], trio.env);
}

/** Moves the bare remote's memory ref to a hostile commit on `tip`, made there with plumbing (what anyone with push access can make it hold). */
function craftRemote(tip: string, depth: number): void {
  git(trio.remote, ['update-ref', REMOTE_REF, hostileCommit(trio.remote, trio.remote, tip, depth)], trio.env);
}

/** Clone a writes capsules 1 and 2 and pushes; clone b syncs to the same state. Returns the remote tip. */
async function shared(): Promise<string> {
  await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
  await sync(trio.a, trio.env);
  await sync(trio.b, trio.env);
  return refOf(trio.remote, trio.env, REMOTE_REF)!;
}

const TOO_DEEP = Array.from({ length: 32 }, (_, i) => (i === 0 ? 'deep' : 'd')).join('/');
const LEFT_OUT = [
  expect.objectContaining({ reason: 'symlink', count: 1, paths: ['link'] }),
  expect.objectContaining({ reason: 'gitlink', count: 1, paths: ['vendor'] }),
  expect.objectContaining({ reason: 'too-deep', count: 1, paths: [TOO_DEEP] }),
];

/** The top-level entries of `rev` that no memory tree holds (mode and name). */
function strayEntries(dir: string, rev: string): string[] {
  return git(dir, ['ls-tree', rev], trio.env).split('\n').filter((l) => /\t(link|vendor|deep)$/.test(l));
}

describe('sync and tree entries outside the capsule layout', () => {
  it('leaves a remote symlink, gitlink and 10,000-deep path out of a fast-forward, says which, and pushes the repair', async () => {
    craftRemote(await shared(), 10_000);

    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'fast-forward', pushed: true });
    expect(report.refused).toEqual(LEFT_OUT);
    expect(strayEntries(trio.a, REF)).toEqual([]);
    expect(strayEntries(trio.remote, REMOTE_REF)).toEqual([]);
    expect(git(trio.a, ['ls-tree', '-r', '--name-only', REF], trio.env).split('\n')).toContain(`${capsuleDir(testId(1))}/capsule.md`);
  }, 120_000);

  it('leaves them out of a merge with a local change', async () => {
    // 40 levels: past the same limit, and cheaper to fetch than 10,000 (git's pack-objects takes seconds on those names).
    craftRemote(await shared(), 40);
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]); // diverged: this sync merges

    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'merge', pushed: true });
    expect(report.refused).toEqual(LEFT_OUT);
    expect(strayEntries(trio.remote, REMOTE_REF)).toEqual([]);
    expect(strayEntries(trio.a, REF)).toEqual([]);
  });

  it('never publishes them when the local branch holds them (a hand-made commit)', async () => {
    const tip = await shared();
    git(trio.a, ['update-ref', REF, hostileCommit(trio.a, join(trio.a, '.git'), tip, 10_000)], trio.env);

    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'push', pushed: true });
    expect(report.refused).toEqual(LEFT_OUT);
    expect(strayEntries(trio.remote, REMOTE_REF)).toEqual([]);
    expect(git(trio.remote, ['ls-tree', '-r', '--name-only', REMOTE_REF], trio.env).split('\n')).toContain(`${capsuleDir(testId(2))}/capsule.md`);
  }, 60_000);

  it('names each kind on its own line of the sync report', async () => {
    craftRemote(await shared(), 40);

    const r = await runCli(['sync'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('refused from origin: 1 symbolic links, which the capsule layout never holds (left out): "link"');
    expect(r.stdout).toContain('refused from origin: 1 gitlinks (submodule entries), which the capsule layout never holds (left out): "vendor"');
    expect(r.stdout).toContain(`: "${TOO_DEEP}"`);
  });
});
