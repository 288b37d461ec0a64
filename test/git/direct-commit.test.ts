import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directCommitsAllowed, directCommitter } from '../../lib/git/direct-commit';
import { runImport, type CommitSpec } from '../../lib/git/fast-import';
import { createGitRunner } from '../../lib/git/git-runner';
import { FileObjectReader } from '../../lib/git/object-reader';

const REF = 'refs/heads/capsules';
const identity = { name: 'Direct', email: 'direct@example.com' };

/** Two identical repositories (a memory-like branch of nested folders), one written by fast-import, one directly. */
function makePair() {
  const root = mkdtempSync(join(tmpdir(), 'capsule-direct-'));
  const env = { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(root, '.gitconfig'), GIT_AUTHOR_NAME: 'Other', GIT_AUTHOR_EMAIL: 'other@example.com', GIT_COMMITTER_NAME: 'Other', GIT_COMMITTER_EMAIL: 'other@example.com' };
  const a = join(root, 'by-fast-import');
  execFileSync('git', ['init', '-q', '-b', 'main', a], { env });
  const seed = new Map<string, string | null>([['FORMAT', 'format\n'], ['capsules/2026/11/A1/capsule.md', 'a1\n'], ['capsules/2026/11/A2/capsule.md', 'a2\n'], ['capsules/2026/11/A2/status/e1-w-resumed', 'ev\n'], ['index/active/2026/11', 'line\n'], ['index/counts.json', '{}\n']]);
  return runImport(createGitRunner({ cwd: a, env }), REF, [{ identity, epochSeconds: 1_700_000_000, message: 'seed\n', from: null, files: seed }]).then(() => {
    const b = join(root, 'direct');
    cpSync(a, b, { recursive: true });
    const git = (dir: string, args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8' }).trim();
    const dirs = { gitDir: join(b, '.git'), commonDir: join(b, '.git') };
    const reader = new FileObjectReader(dirs, createGitRunner({ cwd: b, env }));
    return { root, env, a, b, git, dirs, reader, direct: directCommitter(reader, dirs), cleanup: async () => { await reader.close(); rmSync(root, { recursive: true, force: true }); } };
  });
}

describe('directCommitter', () => {
  let pair: Awaited<ReturnType<typeof makePair>>;
  beforeEach(async () => {
    pair = await makePair();
  });
  afterEach(() => pair.cleanup());

  const spec = (files: Array<[string, string | null]>, deleteDirs: string[] = []): CommitSpec => ({
    identity,
    epochSeconds: 1_700_000_600,
    message: 'status A2: active -> resumed\n\nCapsule-Id: A2\n',
    from: pair.git(pair.a, ['rev-parse', REF]),
    deleteDirs,
    files: new Map(files),
  });

  it.each<[string, Array<[string, string | null]>, string[]]>([
    ['adds a file in a new folder and rewrites an index blob', [['capsules/2026/12/B1/capsule.md', 'b1\n'], ['index/counts.json', '{"active":1}\n']], []],
    ['replaces a document in place', [['capsules/2026/11/A1/capsule.md', 'a1 v2\n']], []],
    ['deletes the last file of a folder, which disappears', [['index/active/2026/11', null], ['index/resumed/2026/11', 'line\n']], []],
    ['empties a folder first, then writes into it', [['index/active/2026/12', 'new\n']], ['index']],
    ['deletes a whole folder by its path', [['capsules/2026/11/A2', null]], []],
  ])('%s: the same commit fast-import makes, byte for byte', async (_name, files, deleteDirs) => {
    const s = spec(files, deleteDirs);
    const imported = await runImport(createGitRunner({ cwd: pair.a, env: pair.env }), REF, [s]);
    const direct = await pair.direct.commit(REF, s);
    expect(direct).toEqual(imported);
    expect(pair.git(pair.b, ['rev-parse', REF])).toBe(pair.git(pair.a, ['rev-parse', REF]));
    expect(pair.git(pair.b, ['fsck', '--strict', '--no-dangling'])).toBe('');
  });

  it('appends the reflog line, as the ref has a reflog', async () => {
    const before = readFileSync(join(pair.b, '.git', 'logs', REF), 'utf8').split('\n').filter(Boolean).length;
    const out = await pair.direct.commit(REF, spec([['capsules/2026/11/A1/capsule.md', 'a1 v2\n']]));
    const lines = readFileSync(join(pair.b, '.git', 'logs', REF), 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(before + 1);
    expect(lines.at(-1)).toMatch(new RegExp(`^[0-9a-f]{40} ${out?.ok && out.commit} Direct <direct@example.com> 1700000600 \\+0000\\tstatus A2: active -> resumed$`));
  });

  it('moves a ref that only packed-refs holds', async () => {
    pair.git(pair.b, ['pack-refs', '--all', '--prune']);
    const out = await pair.direct.commit(REF, spec([['capsules/2026/11/A1/capsule.md', 'a1 v2\n']]));
    expect(out).toMatchObject({ ok: true });
    expect(pair.git(pair.b, ['rev-parse', REF])).toBe(out?.ok ? out.commit : '');
  });

  it('loses the race, moving nothing, when the ref moved since the tip it builds on', async () => {
    const s = spec([['capsules/2026/11/A1/capsule.md', 'a1 v2\n']]);
    const moved = pair.git(pair.b, ['commit-tree', `${s.from}^{tree}`, '-p', s.from!, '-m', 'another writer']);
    pair.git(pair.b, ['update-ref', REF, moved]);
    expect(await pair.direct.commit(REF, s)).toEqual({ ok: false, reason: expect.stringMatching(/^cannot lock ref .* but expected /) });
    expect(pair.git(pair.b, ['rev-parse', REF])).toBe(moved);
  });

  it("loses the race while another writer holds git's ref lock, naming the lock as git does", async () => {
    const lock = join(pair.b, '.git', `${REF}.lock`);
    writeFileSync(lock, '');
    const s = spec([['capsules/2026/11/A1/capsule.md', 'a1 v2\n']]);
    expect(await pair.direct.commit(REF, s)).toEqual({ ok: false, reason: `Unable to create '${lock}': File exists.` });
    expect(readFileSync(lock, 'utf8')).toBe('');
    expect(pair.git(pair.b, ['rev-parse', REF])).toBe(s.from);
  });

  it('loses no commit and keeps fsck clean while git gc packs objects and refs beside the writes', async () => {
    const git = createGitRunner({ cwd: pair.b, env: pair.env });
    const before = Number(pair.git(pair.b, ['rev-list', '--count', REF]));
    let gcRuns = 0;
    let writing = true;
    const gcLoop = (async () => {
      while (writing || gcRuns === 0) {
        await new Promise<void>((done, fail) => execFile('git', ['-c', 'gc.autoDetach=false', 'gc', '--quiet'], { cwd: pair.b, env: pair.env }, (err) => (err ? fail(err) : done())));
        gcRuns += 1;
      }
    })();
    const WRITES = 24;
    for (let i = 0; i < WRITES; i += 1) {
      // A lost race (gc's pack-refs holds the ref lock) is retried from the tip as it is now, as the store does.
      for (let attempt = 0; ; attempt += 1) {
        const s = { ...spec([[`capsules/2026/12/G${i}/capsule.md`, `g${i}\n`], ['index/counts.json', `{"n":${i}}\n`]]), from: pair.git(pair.b, ['rev-parse', REF]) };
        const out = await runImport(git, REF, [s], pair.direct);
        if (out.ok) break;
        if (attempt > 20) throw new Error(`write ${i} kept losing: ${out.reason}`);
      }
      await new Promise((r) => setImmediate(r));
    }
    writing = false;
    await gcLoop;
    expect(gcRuns).toBeGreaterThan(0);
    expect(pair.git(pair.b, ['fsck', '--strict', '--no-dangling', '--no-progress'])).toBe('');
    expect(Number(pair.git(pair.b, ['rev-list', '--count', REF]))).toBe(before + WRITES);
    const listing = pair.git(pair.b, ['ls-tree', '-r', '--name-only', REF]);
    for (let i = 0; i < WRITES; i += 1) expect(listing).toContain(`capsules/2026/12/G${i}/capsule.md`);
  }, 180_000); // 24 writes racing repeated full gc runs: ~10 s on a quiet machine, over 30 s on a loaded one

  it('leaves a commit that places existing objects (a layout move) to fast-import, so the commit is the one fast-import makes', async () => {
    const moved = pair.git(pair.a, ['rev-parse', `${REF}:capsules/2026/11/A2`]);
    const s: CommitSpec = { ...spec([['FORMAT', 'format 2\n']], ['capsules/2026/11/A2']), objects: new Map([['capsules/2026/11/30/A2', { mode: '040000', oid: moved }]]) };
    expect(await pair.direct.commit(REF, s)).toBeNull();
    const imported = await runImport(createGitRunner({ cwd: pair.a, env: pair.env }), REF, [s]);
    expect(await runImport(createGitRunner({ cwd: pair.b, env: pair.env }), REF, [s], pair.direct)).toEqual(imported);
    expect(pair.git(pair.b, ['rev-parse', `${REF}:capsules/2026/11/30/A2`])).toBe(moved);
  });

  it('leaves a first commit (no tip yet) to fast-import', async () => {
    expect(await pair.direct.commit(REF, { ...spec([['FORMAT', 'x\n']]), from: null })).toBeNull();
  });
});

describe('directCommitsAllowed', () => {
  it.each([
    [{}, true],
    [{ 'core.sharedrepository': 'false' }, true],
    [{ 'core.sharedrepository': 'group' }, false],
    [{ 'core.sharedrepository': '0660' }, false],
    [{ 'core.fsync': 'loose-object' }, false],
    [{ 'core.fsyncobjectfiles': 'true' }, false],
  ])('judges %j: %s', (values, allowed) => {
    expect(directCommitsAllowed(values)).toBe(allowed);
  });
});
