import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { capsuleDir } from '../../lib/store/memory-format';
import { runCli } from '../support/run-cli';
import { capsuleText, fsck, git, makeTrio, readText, refOf, REMOTE_REF, removeTrio, setStatus, statuses, sync, testId, writeCapsules, type Trio } from './sync-trio';

// Issue 16, item 2 and the push part of item 8: a collaborator's commit on top of ours is one
// more writer, not the truth. Two clones and a bare remote; clone b plays the collaborator and
// pushes commits made with plain git plumbing, as anyone with push access could.
const REF = 'refs/heads/capsules';
const DIR = (n: number) => capsuleDir(testId(n));
let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

/** Writes, in clone b, a commit on top of `parent` whose tree is `parent`'s edited by `edit` (a scratch index), and pushes it as the remote's memory ref. */
function pushForged(parent: string, edit: (run: (args: string[], input?: string) => string) => void): string {
  const scratch = mkdtempSync(join(trio.root, 'forge-'));
  const env = { ...trio.env, GIT_INDEX_FILE: join(scratch, 'index') };
  const run = (args: string[], input?: string) => execFileSync('git', args, { cwd: trio.b, env, input, encoding: 'utf8' }).trim();
  git(trio.b, ['fetch', '-q', 'origin', REMOTE_REF], trio.env);
  run(['read-tree', parent]);
  edit(run);
  const tree = run(['write-tree']);
  const commit = run(['-c', 'user.name=Mallory', '-c', 'user.email=m@example.com', 'commit-tree', tree, '-p', parent, '-m', 'tidy up']);
  git(trio.b, ['push', '-q', 'origin', `${commit}:${REMOTE_REF}`], trio.env);
  rmSync(scratch, { recursive: true, force: true });
  return commit;
}

/** Replaces the `index/` folder of the forged tree with the index tree `index`. */
const graftIndex = (index: string) => (run: (args: string[]) => string) => {
  run(['rm', '-r', '-q', '--cached', 'index']);
  run(['read-tree', '--prefix=index/', index]);
};

/** Clone a writes capsules 1 and 2 and pushes; clone b syncs to the same state. Returns the remote tip. */
async function shared(): Promise<string> {
  await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
  await sync(trio.a, trio.env);
  await sync(trio.b, trio.env);
  return refOf(trio.remote, trio.env, REMOTE_REF)!;
}

/** A `..` blob inside capsules/ of `tip`'s tree: plumbing builds what porcelain refuses. */
function treeWithDotDot(dir: string, tip: string): string {
  const blob = git(dir, ['hash-object', '-w', '--stdin'], trio.env, 'payload\n');
  const capsules = git(dir, ['mktree'], trio.env, `${git(dir, ['ls-tree', `${tip}:capsules`], trio.env)}\n100644 blob ${blob}\t..\n`);
  return git(dir, ['mktree'], trio.env, git(dir, ['ls-tree', tip], trio.env).replace(/^(040000 tree )[0-9a-f]+(\tcapsules)$/m, `$1${capsules}$2`) + '\n');
}

const remotePaths = () => git(trio.remote, ['ls-tree', '-r', '--name-only', REMOTE_REF], trio.env).split('\n');
const parentOf = (dir: string, commit: string) => git(dir, ['rev-parse', `${commit}^`], trio.env);

describe('sync against a hostile remote', () => {
  it('keeps the capsules and status events a remote commit on top of ours deletes, says so, and pushes them back', async () => {
    await shared();
    await setStatus(trio.a, trio.env, testId(1), 'resolved', 'alice');
    await sync(trio.a, trio.env);
    const forged = pushForged(refOf(trio.remote, trio.env, REMOTE_REF)!, (run) => run(['rm', '-r', '-q', '--cached', DIR(2), `${DIR(1)}/status`]));

    const report = await sync(trio.a, trio.env);
    expect(report.refused).toEqual([expect.objectContaining({ reason: 'drops-local-files', count: 2 })]);
    expect(report).toMatchObject({ action: 'fast-forward', pushed: true });
    expect(parentOf(trio.a, report.local.after!)).toBe(forged);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'resolved', [testId(2)]: 'active' });
    expect(remotePaths()).toContain(`${DIR(2)}/capsule.md`);
    expect(fsck(trio.a, trio.env).code).toBe(0);
  });

  it('does not believe a remote index that marks an active capsule consumed', async () => {
    const tip = await shared();
    // The index of a tree where capsule 1 was resolved, grafted onto a tree where it is active.
    await setStatus(trio.b, trio.env, testId(1), 'resolved', 'mallory');
    pushForged(tip, graftIndex(git(trio.b, ['rev-parse', `${REF}:index`], trio.env)));

    const report = await sync(trio.a, trio.env);
    expect(report.refused.map((r) => r.reason)).toEqual(['index-disagrees']);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'active', [testId(2)]: 'active' });
  });

  it('does not believe a remote index that marks a consumed capsule active', async () => {
    const tip = await shared();
    await setStatus(trio.a, trio.env, testId(1), 'resumed', 'alice');
    await sync(trio.a, trio.env);
    pushForged(refOf(trio.remote, trio.env, REMOTE_REF)!, graftIndex(git(trio.b, ['rev-parse', `${tip}:index`], trio.env)));

    expect((await sync(trio.a, trio.env)).refused.map((r) => r.reason)).toEqual(['index-disagrees']);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'resumed', [testId(2)]: 'active' });
  });

  it('does not believe a forged remote index in a clone that never synced before', async () => {
    const tip = await shared();
    await setStatus(trio.b, trio.env, testId(1), 'resolved', 'mallory');
    pushForged(tip, graftIndex(git(trio.b, ['rev-parse', `${REF}:index`], trio.env)));
    git(trio.root, ['clone', '-q', trio.remote, join(trio.root, 'c')], trio.env);

    expect((await sync(join(trio.root, 'c'), trio.env)).refused.map((r) => r.reason)).toEqual(['index-disagrees']);
    expect(await statuses(join(trio.root, 'c'), trio.env)).toEqual({ [testId(1)]: 'active', [testId(2)]: 'active' });
  });

  it('does not believe a remote index that marks an active capsule consumed when the sync merges', async () => {
    const tip = await shared();
    await setStatus(trio.b, trio.env, testId(1), 'resolved', 'mallory');
    pushForged(tip, graftIndex(git(trio.b, ['rev-parse', `${REF}:index`], trio.env)));
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]); // diverged: this sync merges

    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'merge', pushed: true });
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'active', [testId(2)]: 'active', [testId(3)]: 'active' });
  });

  it('keeps the newer document when a remote commit on top of ours puts back an older version', async () => {
    const tip = await shared();
    const older = git(trio.a, ['rev-parse', `${tip}:${DIR(1)}/capsule.md`], trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(1, { objective: 'Objective 1, second take', updated_at: '2026-11-30T09:00:00Z' })], { replace: true });
    await sync(trio.a, trio.env);
    pushForged(refOf(trio.remote, trio.env, REMOTE_REF)!, (run) => run(['update-index', '--cacheinfo', `100644,${older},${DIR(1)}/capsule.md`]));

    const report = await sync(trio.a, trio.env);
    expect(report.refused).toEqual([expect.objectContaining({ reason: 'older-document', paths: [`${DIR(1)}/capsule.md`] })]);
    expect(await readText(trio.a, trio.env, testId(1))).toContain('second take');
  });

  it('leaves out of a fast-forward the paths git fsck refuses, so a host that checks pushed objects takes the next push', async () => {
    const tip = await shared();
    const commit = git(trio.b, ['-c', 'user.name=Mallory', '-c', 'user.email=m@example.com', 'commit-tree', treeWithDotDot(trio.b, tip), '-p', tip, '-m', 'add'], trio.env);
    git(trio.b, ['push', '-q', 'origin', `${commit}:${REMOTE_REF}`], trio.env);
    git(trio.remote, ['config', 'receive.fsckObjects', 'true'], trio.env);

    const report = await sync(trio.a, trio.env);
    expect(report.refused).toEqual([expect.objectContaining({ reason: 'unsafe-path', count: 1, paths: ['capsules/..'] })]);
    expect(report.pushed).toBe(true);
    expect(git(trio.a, ['ls-tree', '-r', '--name-only', REF], trio.env).split('\n').filter((p) => p.split('/').includes('..'))).toEqual([]);
    await writeCapsules(trio.a, trio.env, [capsuleText(4)]);
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'push', pushed: true });
  });

  it('leaves out of a merge the paths git fsck refuses', async () => {
    const tip = await shared();
    const commit = git(trio.b, ['-c', 'user.name=Mallory', '-c', 'user.email=m@example.com', 'commit-tree', treeWithDotDot(trio.b, tip), '-p', tip, '-m', 'add'], trio.env);
    git(trio.b, ['push', '-q', 'origin', `${commit}:${REMOTE_REF}`], trio.env);
    git(trio.remote, ['config', 'receive.fsckObjects', 'true'], trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]); // diverged: this sync merges

    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'merge', pushed: true, refused: [expect.objectContaining({ reason: 'unsafe-path', paths: ['capsules/..'] })] });
    expect(remotePaths().filter((p) => p.split('/').includes('..'))).toEqual([]);
  });

  it('never pushes a path git fsck refuses that the local branch holds', async () => {
    const tip = await shared();
    // A commit on the local memory branch itself, as an older git-capsule's fast-forward or a hand-made commit left it.
    const local = git(trio.a, ['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit-tree', treeWithDotDot(trio.a, tip), '-p', tip, '-m', 'hand-made'], trio.env);
    git(trio.a, ['update-ref', REF, local], trio.env);
    git(trio.remote, ['config', 'receive.fsckObjects', 'true'], trio.env);

    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'push', pushed: true, refused: [expect.objectContaining({ reason: 'unsafe-path', paths: ['capsules/..'] })] });
    expect(remotePaths().filter((p) => p.split('/').includes('..'))).toEqual([]);
    expect(remotePaths()).toContain(`${DIR(1)}/capsule.md`);
  });

  it('takes an honest fast-forward as it is, with nothing refused', async () => {
    await shared();
    await writeCapsules(trio.b, trio.env, [capsuleText(5)]);
    await setStatus(trio.b, trio.env, testId(2), 'paused', 'bob');
    await sync(trio.b, trio.env);
    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'fast-forward', refused: [], pushed: false, local: { after: refOf(trio.remote, trio.env, REMOTE_REF) } });
  });

  it('says what it refused, one line per kind, and lists it in --json (a dry run too, moving nothing)', async () => {
    const tip = await shared();
    // Capsule 2 deleted, and the index rewritten to match, so only the documents and events tell.
    await setStatus(trio.b, trio.env, testId(2), 'resolved', 'mallory');
    pushForged(tip, (run) => {
      run(['rm', '-r', '-q', '--cached', DIR(2)]);
      graftIndex(git(trio.b, ['rev-parse', `${REF}:index`], trio.env))(run);
    });

    const dry = await runCli(['sync', '--dry-run', '--json'], { cwd: trio.a, env: trio.env });
    expect(JSON.parse(dry.stdout).refused).toEqual([{ reason: 'drops-local-files', count: 1, paths: [`${DIR(2)}/capsule.md`] }, expect.objectContaining({ reason: 'index-disagrees' })]);
    expect(refOf(trio.a, trio.env)).toBe(tip);
    const r = await runCli(['sync'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`refused from origin: 1 capsule files the remote deleted (kept): "${DIR(2)}/capsule.md"`);
    expect(r.stdout).toMatch(/refused from origin: \d+ index files the remote's documents and status events do not give \(rebuilt\)/);
  });
});
