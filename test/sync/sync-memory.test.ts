import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { capsuleDir } from '../../lib/store/memory-format';
import { join } from 'node:path';
import { isCapsuleError } from '../../lib/errors/capsule-error';
import { cloneInto, capsuleText, fsck, git, makeTrio, readText, refOf, REMOTE_REF, removeTrio, setStatus, statuses, sync, testId, writeCapsules, type Trio } from './sync-trio';

const REF = 'refs/heads/capsules';
// Every case runs several syncs, each a handful of real git processes: minutes on a loaded machine.
jest.setTimeout(120_000);
let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

/** Every clone and the remote hold the same tip, a clean object store, and these statuses. */
async function expectConverged(dirs: string[], expected: Record<string, string>): Promise<void> {
  const tips = new Set([...dirs.map((d) => refOf(d, trio.env)), refOf(trio.remote, trio.env, REMOTE_REF)]);
  expect(tips.size).toBe(1);
  for (const d of dirs) {
    expect(await statuses(d, trio.env)).toEqual(expected);
    expect(fsck(d, trio.env).code).toBe(0);
  }
  expect(fsck(trio.remote, trio.env).code).toBe(0);
}

describe('syncMemory', () => {
  it('creates the memory ref on a remote that has none and records it under refs/capsule-remotes', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ remote: 'origin', action: 'push', pushed: true, outgoing: { capsules: 2 } });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(refOf(trio.a, trio.env));
    expect(report.trackingRef).toBe('refs/capsule-remotes/origin/capsules/capsules');
    expect(refOf(trio.a, trio.env, report.trackingRef)).toBe(refOf(trio.a, trio.env));
  });

  it('gives a clone that never ran init everything, by fast-forward', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
    await sync(trio.a, trio.env);
    const c = cloneInto(trio, 'c');
    const report = await sync(c, trio.env);
    expect(report).toMatchObject({ action: 'fast-forward', pushed: false, incoming: { capsules: 2 } });
    await expectConverged([trio.a, c], { [testId(1)]: 'active', [testId(2)]: 'active' });
  });

  it('reads every object of a merging sync through one cat-file and picks its remote without asking git', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.b, trio.env, [capsuleText(3)]);
    const trace = join(trio.root, 'trace2.json');
    rmSync(trace, { force: true });
    const report = await sync(trio.b, { ...trio.env, GIT_TRACE2_EVENT: trace });
    expect(report.action).toBe('merge');
    // Top-level processes only (git's own children, such as upload-pack, report a parent). The trace variable is part of the
    // config cache's key, so this sync refills the cache (`config --list`); the remote is then picked from it.
    const started = existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"')).map((l) => JSON.parse(l) as { sid: string; argv: string[] }) : [];
    const ours = started.filter((e) => !e.sid.includes('/')).map((e) => e.argv.slice(1).filter((a) => !a.startsWith('-c') && !a.includes('=')).join(' '));
    expect(ours.filter((a) => a.startsWith('cat-file'))).toEqual(['cat-file --batch']);
    expect(ours.filter((a) => a === 'remote' || a.startsWith('symbolic-ref') || a.startsWith('config --get'))).toEqual([]);
  });

  it('merges concurrent writes on both sides into the union and pushes it', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(2), capsuleText(3)]);
    await writeCapsules(trio.b, trio.env, [capsuleText(4)]);
    await sync(trio.a, trio.env);
    const aTip = refOf(trio.remote, trio.env, REMOTE_REF);
    const merged = await sync(trio.b, trio.env);
    expect(merged).toMatchObject({ action: 'merge', pushed: true, published: 1, incoming: { capsules: 2 }, outgoing: { capsules: 1 } });
    // One commit holding the union, on top of what a pushed (no merge commit beside it).
    expect(git(trio.b, ['rev-list', '--parents', '-n', '1', REF], trio.env).split(' ')).toEqual([refOf(trio.remote, trio.env, REMOTE_REF), aTip]);
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'fast-forward', incoming: { capsules: 1, events: 0 }, outgoing: { capsules: 0 } });
    await expectConverged([trio.a, trio.b], Object.fromEntries([1, 2, 3, 4].map((n) => [testId(n), 'active'])));
  });

  it('keeps every status event of divergent changes and derives the lattice maximum', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await setStatus(trio.a, trio.env, testId(1), 'resolved', 'machine-a');
    await setStatus(trio.b, trio.env, testId(1), 'paused', 'machine-b');
    await setStatus(trio.a, trio.env, testId(2), 'paused', 'machine-a');
    await setStatus(trio.b, trio.env, testId(2), 'abandoned', 'machine-b');
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await sync(trio.a, trio.env);
    await expectConverged([trio.a, trio.b], { [testId(1)]: 'resolved', [testId(2)]: 'abandoned' });
    const tree = git(trio.a, ['ls-tree', '-r', '--name-only', REF], trio.env);
    expect(tree.split('\n').filter((p) => p.includes('/status/'))).toHaveLength(4);
  });

  it.each([
    ['the later machine', 'b'],
    ['the earlier machine', 'a'],
  ])("keeps the newer autosave of one session when %s syncs first", async (_name, first) => {
    const autosave = (updatedAt: string, note: string) => capsuleText(1, { trigger: 'autosave', session_id: 'S1', updated_at: updatedAt, objective: note });
    await writeCapsules(trio.a, trio.env, [autosave('2026-11-29T21:00:00Z', 'first')]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.a, trio.env, [autosave('2026-11-29T21:10:00+01:00', 'older on a')], { replace: true });
    await writeCapsules(trio.b, trio.env, [autosave('2026-11-29T20:30:00Z', 'newer on b')], { replace: true });
    const [x, y] = first === 'a' ? [trio.a, trio.b] : [trio.b, trio.a];
    await sync(x, trio.env);
    const merged = await sync(y, trio.env);
    await sync(x, trio.env);
    expect(merged.incoming.changed + merged.outgoing.changed).toBeGreaterThan(0);
    await expectConverged([trio.a, trio.b], { [testId(1)]: 'active' });
    expect(await readText(trio.a, trio.env, testId(1))).toContain('newer on b');
  });

  it('computes the same merge commit whichever side merges', async () => {
    const autosave = (updatedAt: string) => capsuleText(5, { trigger: 'autosave', session_id: 'S5', updated_at: updatedAt, objective: `saved ${updatedAt}` });
    const other = join(trio.root, 'other.git');
    git(trio.root, ['init', '-q', '--bare', other], trio.env);
    git(trio.a, ['remote', 'add', 'other', other], trio.env);
    git(trio.b, ['remote', 'add', 'other', other], trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(1), autosave('2026-11-29T20:00:00Z')]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.a, trio.env, [autosave('2026-11-29T20:05:00Z')], { replace: true });
    await writeCapsules(trio.b, trio.env, [autosave('2026-11-29T20:07:00Z')], { replace: true });
    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    await setStatus(trio.a, trio.env, testId(1), 'paused', 'a');
    await writeCapsules(trio.b, trio.env, [capsuleText(3, { created_at: '2026-10-02T08:00:00+02:00' })]);
    await setStatus(trio.b, trio.env, testId(1), 'resumed', 'b');
    // Each publishes its state to one remote; then a merges b's published tip, and b merges a's.
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env, { remote: 'other' });
    const ab = await sync(trio.a, trio.env, { remote: 'other', push: false });
    const ba = await sync(trio.b, trio.env, { push: false });
    expect([ab.action, ba.action]).toEqual(['merge', 'merge']);
    expect(git(trio.a, ['rev-parse', `${REF}^{tree}`], trio.env)).toBe(git(trio.b, ['rev-parse', `${REF}^{tree}`], trio.env));
    expect(refOf(trio.a, trio.env)).toBe(refOf(trio.b, trio.env));
    expect(ab.resolutions).toEqual([expect.objectContaining({ path: expect.stringContaining(testId(5)), kept: 'theirs' })]);
    expect(ba.resolutions).toEqual([expect.objectContaining({ path: expect.stringContaining(testId(5)), kept: 'ours' })]);
    expect(await readText(trio.a, trio.env, testId(5))).toContain('saved 2026-11-29T20:07:00Z');
  });

  it('converges when two processes sync at once', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    for (let round = 0; round < 3; round += 1) {
      await writeCapsules(trio.a, trio.env, [capsuleText(10 + round)]);
      await writeCapsules(trio.b, trio.env, [capsuleText(20 + round)]);
      const codes = await Promise.all([trio.a, trio.b].map((d) => runCliProcess(['sync', '--quiet'], d)));
      expect(codes).toEqual([0, 0]);
    }
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    const ids = [1, 10, 11, 12, 20, 21, 22].map(testId);
    await expectConverged([trio.a, trio.b], Object.fromEntries(ids.map((id) => [id, 'active'])));
  });

  it('fetches, merges and pushes again when someone pushed between its fetch and its push', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.b, trio.env, [capsuleText(2)]);
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]);
    let raced = false;
    const report = await sync(trio.a, trio.env, {
      progress: (line) => {
        if (!line.includes('pushing') || raced) return;
        raced = true;
        git(trio.b, ['push', '-q', 'origin', `${REF}:${REMOTE_REF}`], trio.env);
      },
    });
    expect(report).toMatchObject({ action: 'merge', attempts: 2, pushed: true });
    await sync(trio.b, trio.env);
    await expectConverged([trio.a, trio.b], Object.fromEntries([1, 2, 3].map((n) => [testId(n), 'active'])));
  });

  it('gives up with SYNC_RACE_LOST after its bounded attempts, keeping the local merge', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(2)]);
    const pushFromB = () => {
      git(trio.b, ['fetch', '-q', 'origin', `+${REMOTE_REF}:${REF}`], trio.env);
      const next = git(trio.b, ['commit-tree', `${REF}^{tree}`, '-p', REF, '-m', 'elsewhere'], trio.env);
      git(trio.b, ['push', '-q', 'origin', `${next}:${REMOTE_REF}`], trio.env);
    };
    const err = await sync(trio.a, trio.env, { maxAttempts: 2, progress: (line) => line.includes('pushing') && pushFromB() }).catch((e: unknown) => e);
    expect(isCapsuleError(err, 'SYNC_RACE_LOST')).toBe(true);
    expect((err as { data: { attempts: number } }).data.attempts).toBe(2);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'active', [testId(2)]: 'active' });
  });

  it('keeps a local write that lands while it merges, by merging again from the new tip', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.b, trio.env, [capsuleText(2)]);
    await sync(trio.b, trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(3)]);
    let written = '';
    const report = await sync(trio.a, trio.env, {
      progress: (line) => {
        if (!line.includes('merging') || written) return;
        // A hook's write lands meanwhile: a status event, committed with plain git.
        written = commitWithEvent(trio.a, testId(1), '20261129T230000000Z-racer-paused');
      },
    });
    expect(report.attempts).toBe(2);
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'paused', [testId(2)]: 'active', [testId(3)]: 'active' });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(refOf(trio.a, trio.env));
    // Its commit is not pushed (its state is), but stays in the local history.
    expect(git(trio.a, ['for-each-ref', '--format=%(objectname)', 'refs/capsule-history/'], trio.env).split('\n')).toContain(written);
  });

  it('fails with REMOTE_UNREACHABLE and changes nothing locally when the remote cannot be reached', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    const before = git(trio.a, ['for-each-ref'], trio.env);
    const err = await sync(trio.a, trio.env, { remote: join(trio.root, 'missing.git') }).catch((e: unknown) => e);
    expect(isCapsuleError(err, 'REMOTE_UNREACHABLE')).toBe(true);
    expect(git(trio.a, ['for-each-ref'], trio.env)).toBe(before);
  });

  it('moves no ref on a dry run and reports what would move', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
    await sync(trio.a, trio.env);
    await writeCapsules(trio.b, trio.env, [capsuleText(3)]);
    const refsBefore = [git(trio.b, ['for-each-ref'], trio.env), git(trio.remote, ['for-each-ref'], trio.env)];
    const report = await sync(trio.b, trio.env, { dryRun: true });
    expect(report).toMatchObject({ action: 'merge', dryRun: true, pushed: false, incoming: { capsules: 2 }, outgoing: { capsules: 1 } });
    expect([git(trio.b, ['for-each-ref'], trio.env), git(trio.remote, ['for-each-ref'], trio.env)]).toEqual(refsBefore);
  });

  it("refuses a remote ref that is not a memory branch with SYNC_NOT_MEMORY", async () => {
    git(trio.a, ['push', '-q', 'origin', `main:${REMOTE_REF}`], trio.env);
    await writeCapsules(trio.b, trio.env, [capsuleText(1)]);
    const before = refOf(trio.b, trio.env);
    const err = await sync(trio.b, trio.env).catch((e: unknown) => e);
    expect(isCapsuleError(err, 'SYNC_NOT_MEMORY')).toBe(true);
    expect(refOf(trio.b, trio.env)).toBe(before);
  });

  it("defaults to the remote of the current branch's upstream", async () => {
    const other = join(trio.root, 'other.git');
    git(trio.root, ['init', '-q', '--bare', other], trio.env);
    git(trio.a, ['remote', 'add', 'other', other], trio.env);
    git(trio.a, ['config', 'branch.main.remote', 'other'], trio.env);
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    expect((await sync(trio.a, trio.env)).remote).toBe('other');
    expect(refOf(other, trio.env, REMOTE_REF)).toBe(refOf(trio.a, trio.env));
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBeNull();
  });
});

/** A commit on the memory branch adding one status event file, made with plain git (no index update). */
function commitWithEvent(dir: string, id: string, name: string): string {
  const env = { ...trio.env, GIT_INDEX_FILE: join(trio.root, `index-${Date.now()}`) };
  git(dir, ['read-tree', REF], env);
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, env, input: 'status: paused\n', encoding: 'utf8' }).trim();
  git(dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},${capsuleDir(id)}/status/${name}`], env);
  const commit = git(dir, ['commit-tree', git(dir, ['write-tree'], env), '-p', REF, '-m', 'a local write'], env);
  git(dir, ['update-ref', REF, commit], env);
  return commit;
}

/** Runs the built CLI as its own process (npm test builds dist/ first). */
function runCliProcess(args: string[], cwd: string): Promise<number> {
  const bundle = join(__dirname, '..', '..', 'dist', 'git-capsule.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundle, ...args], { cwd, env: trio.env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('close', (code) => resolve(code ?? -1));
  });
}
