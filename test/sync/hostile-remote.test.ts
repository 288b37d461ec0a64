import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { capsuleText, fsck, git, makeTrio, refOf, removeTrio, setStatus, statuses, sync, testId, writeCapsules, type Trio } from './sync-trio';

// Issue 16, item 2 and the last part of item 8: a collaborator's commit on top of ours is one
// more writer, not the truth. Two clones and a bare remote; clone b plays the collaborator and
// pushes commits made with plain git plumbing, as anyone with push access could.
const REF = 'refs/heads/capsules';
const DIR = (n: number) => `capsules/2026/11/${testId(n)}`;
let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

/** Writes, in clone b, a commit on top of `parent` whose tree is `parent`'s edited by `edit` (an index-file session), and pushes it. */
function pushForged(parent: string, edit: (run: (args: string[], input?: string) => string) => void): string {
  const scratch = mkdtempSync(join(trio.root, 'forge-'));
  const env = { ...trio.env, GIT_INDEX_FILE: join(scratch, 'index') };
  const run = (args: string[], input?: string) => execFileSync('git', args, { cwd: trio.b, env, input, encoding: 'utf8' }).trim();
  run(['read-tree', parent]);
  edit(run);
  const tree = run(['write-tree']);
  const commit = run(['-c', 'user.name=Mallory', '-c', 'user.email=m@example.com', 'commit-tree', tree, '-p', parent, '-m', 'tidy up']);
  git(trio.b, ['push', '-q', 'origin', `${commit}:${REF}`], trio.env);
  rmSync(scratch, { recursive: true, force: true });
  return commit;
}

/** Clone a writes capsules 1 and 2 and pushes; clone b fetches the same tip. */
async function shared(): Promise<string> {
  await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
  await sync(trio.a, trio.env);
  await sync(trio.b, trio.env);
  return refOf(trio.b, trio.env)!;
}

function treePaths(dir: string): string[] {
  return git(dir, ['ls-tree', '-r', '--name-only', REF], trio.env).split('\n');
}

describe('sync against a hostile remote', () => {
  it("keeps the capsules a remote commit on top of ours deletes, says so, and pushes them back", async () => {
    const tip = await shared();
    await setStatus(trio.a, trio.env, testId(1), 'resolved', 'alice');
    await sync(trio.a, trio.env);
    const withEvent = refOf(trio.a, trio.env)!;
    git(trio.b, ['fetch', '-q', 'origin', `+${REF}:${REF}`], trio.env);
    pushForged(withEvent, (run) => run(['rm', '-r', '-q', '--cached', DIR(2), `${DIR(1)}/status`]));
    expect(tip).not.toBe(withEvent);

    const report = await sync(trio.a, trio.env);
    expect(report.refused).toEqual([expect.objectContaining({ reason: 'drops-local-files', count: 2 })]);
    expect(report.pushed).toBe(true);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'resolved', [testId(2)]: 'active' });
    expect(git(trio.remote, ['ls-tree', '-r', '--name-only', REF], trio.env)).toContain(`${DIR(2)}/capsule.md`);
    expect(fsck(trio.a, trio.env).code).toBe(0);
  });

  it("does not believe a remote index that marks an active capsule consumed", async () => {
    const tip = await shared();
    // The index of a tree where capsule 1 was resolved, grafted onto a tree where it is active.
    await setStatus(trio.b, trio.env, testId(1), 'resolved', 'mallory');
    const resolvedIndex = git(trio.b, ['rev-parse', `${REF}:index`], trio.env);
    pushForged(tip, (run) => {
      run(['rm', '-r', '-q', '--cached', 'index']);
      run(['read-tree', `--prefix=index/`, resolvedIndex]);
    });

    const report = await sync(trio.a, trio.env);
    expect(report.refused.map((r) => r.reason)).toEqual(['index-disagrees']);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'active', [testId(2)]: 'active' });
  });

  it('does not believe a remote index that marks a consumed capsule active', async () => {
    const tip = await shared();
    await setStatus(trio.a, trio.env, testId(1), 'resumed', 'alice');
    await sync(trio.a, trio.env);
    git(trio.b, ['fetch', '-q', 'origin', `+${REF}:${REF}`], trio.env);
    const activeIndex = git(trio.b, ['rev-parse', `${tip}:index`], trio.env);
    pushForged(refOf(trio.b, trio.env)!, (run) => {
      run(['rm', '-r', '-q', '--cached', 'index']);
      run(['read-tree', `--prefix=index/`, activeIndex]);
    });

    expect((await sync(trio.a, trio.env)).refused.map((r) => r.reason)).toEqual(['index-disagrees']);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'resumed', [testId(2)]: 'active' });
  });

  it('does not believe a remote index that marks an active capsule consumed when the sync merges', async () => {
    const tip = await shared();
    await setStatus(trio.b, trio.env, testId(1), 'resolved', 'mallory');
    const resolvedIndex = git(trio.b, ['rev-parse', `${REF}:index`], trio.env);
    pushForged(tip, (run) => {
      run(['rm', '-r', '-q', '--cached', 'index']);
      run(['read-tree', `--prefix=index/`, resolvedIndex]);
    });
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]); // diverged: this sync merges

    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'merge', pushed: true });
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'active', [testId(2)]: 'active', [testId(3)]: 'active' });
  });

  it("leaves out paths git fsck refuses, so a host that checks pushed objects takes the next push", async () => {
    const tip = await shared();
    // Plumbing builds what porcelain refuses: a `..` entry inside capsules/.
    const blob = git(trio.b, ['hash-object', '-w', '--stdin'], trio.env, 'payload\n');
    const capsules = git(trio.b, ['mktree'], trio.env, `${git(trio.b, ['ls-tree', `${tip}:capsules`], trio.env)}\n100644 blob ${blob}\t..\n`);
    const root = git(trio.b, ['mktree'], trio.env, git(trio.b, ['ls-tree', tip], trio.env).replace(/^(040000 tree )[0-9a-f]+(\tcapsules)$/m, `$1${capsules}$2`) + '\n');
    const commit = git(trio.b, ['-c', 'user.name=Mallory', '-c', 'user.email=m@example.com', 'commit-tree', root, '-p', tip, '-m', 'add'], trio.env);
    git(trio.b, ['push', '-q', 'origin', `${commit}:${REF}`], trio.env);
    git(trio.remote, ['config', 'receive.fsckObjects', 'true'], trio.env);

    const report = await sync(trio.a, trio.env);
    expect(report.refused).toEqual([expect.objectContaining({ reason: 'unsafe-path', count: 1, paths: ['capsules/..'] })]);
    expect(report.pushed).toBe(true);
    expect(treePaths(trio.a).filter((p) => p.split('/').includes('..'))).toEqual([]);
    await writeCapsules(trio.a, trio.env, [capsuleText(4)]);
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'push', pushed: true });
  });

  it('never fast-forwards a memory branch a worktree has checked out (MEMORY_REF_CHECKED_OUT), and moves nothing', async () => {
    const tip = await shared();
    await writeCapsules(trio.b, trio.env, [capsuleText(6)]);
    await sync(trio.b, trio.env);
    git(trio.a, ['worktree', 'add', '-q', join(trio.root, 'a-memory'), 'capsules'], trio.env);
    await expect(sync(trio.a, trio.env)).rejects.toMatchObject({ code: 'MEMORY_REF_CHECKED_OUT' });
    expect(refOf(trio.a, trio.env)).toBe(tip);
    expect(git(join(trio.root, 'a-memory'), ['status', '--porcelain'], trio.env)).toBe('');
  });

  it('takes an honest fast-forward as it is, with nothing refused', async () => {
    await shared();
    await writeCapsules(trio.b, trio.env, [capsuleText(5)]);
    await sync(trio.b, trio.env);
    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ action: 'fast-forward', refused: [], local: { after: refOf(trio.remote, trio.env) } });
  });
});
