import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { lastSignatures } from '../../lib/git/commit-signature';
import { createGitRunner, type GitRunner } from '../../lib/git/git-runner';
import { historyAsStored, unsignedLastCommits } from '../../lib/git/unsigned-last-commits';
import { openStore } from '../../lib/store/open-store';
import { cleanup, git, makeRepo } from '../store/support/temp-repo';

/** A runner that records every git it starts (the object reader has its own). */
function watched(dir: string, env: NodeJS.ProcessEnv): { runner: GitRunner; ran: string[][] } {
  const real = createGitRunner({ cwd: dir, env });
  const ran: string[][] = [];
  return { ran, runner: { cwd: real.cwd, env: real.env, run: (args, opts) => (ran.push([...args]), real.run(args, opts)) } };
}

function hashBlob(dir: string, env: NodeJS.ProcessEnv, text: string): string {
  const file = join(dir, '.blob');
  writeFileSync(file, text);
  return git(dir, ['hash-object', '-w', file], env);
}

/** Writes a file in the worktree and commits it; returns the commit. */
function save(dir: string, env: NodeJS.ProcessEnv, path: string, text: string): string {
  git(dir, ['update-index', '--add', '--cacheinfo', `100644,${hashBlob(dir, env, text)},${path}`], env);
  git(dir, ['commit', '-q', '-m', `save ${path}`], env);
  return git(dir, ['rev-parse', 'HEAD'], env);
}

describe('the newest commits of paths, read without git where git would only say "not signed"', () => {
  let repo: { dir: string; env: NodeJS.ProcessEnv };
  let batch: CatFileBatch;
  beforeEach(() => {
    repo = makeRepo();
    batch = new CatFileBatch(createGitRunner({ cwd: repo.dir, env: repo.env }));
  });
  afterEach(async () => {
    await batch.close();
    cleanup(repo.dir);
  });

  it('names the same commits as git log on a linear unsigned history, and starts no git for it', async () => {
    const first = save(repo.dir, repo.env, 'capsules/a/capsule.md', 'a1');
    save(repo.dir, repo.env, 'capsules/b/capsule.md', 'b1');
    const third = save(repo.dir, repo.env, 'capsules/b/capsule.md', 'b2');
    save(repo.dir, repo.env, 'other', 'x');
    const { runner, ran } = watched(repo.dir, repo.env);

    const fast = await lastSignatures(runner, 'HEAD', ['capsules/a/capsule.md', 'capsules/b/capsule.md'], { objects: batch });
    const fromGit = await lastSignatures(runner, 'HEAD', ['capsules/a/capsule.md', 'capsules/b/capsule.md']);

    expect(fast).toEqual(fromGit);
    expect(fast.get('capsules/a/capsule.md')).toEqual({ verified: false, status: 'N', signer: null, commit: first });
    expect(fast.get('capsules/b/capsule.md')?.commit).toBe(third);
    expect(ran).toHaveLength(1); // only the git log asked for the comparison
  });

  it('counts a mode change as a change, as git does', async () => {
    save(repo.dir, repo.env, 'p/f', 'x');
    git(repo.dir, ['update-index', '--cacheinfo', `100755,${hashBlob(repo.dir, repo.env, 'x')},p/f`], repo.env);
    git(repo.dir, ['commit', '-q', '-m', 'chmod'], repo.env);
    const chmod = git(repo.dir, ['rev-parse', 'HEAD'], repo.env);
    expect((await unsignedLastCommits(batch, 'HEAD', ['p/f']))?.get('p/f')?.commit).toBe(chmod);
  });

  it('asks git when a merge is on the way: git follows the side that brought the path in', async () => {
    git(repo.dir, ['checkout', '-q', '-b', 'side'], repo.env);
    const onSide = save(repo.dir, repo.env, 'capsules/s/capsule.md', 's');
    git(repo.dir, ['checkout', '-q', 'main'], repo.env);
    save(repo.dir, repo.env, 'other', 'm');
    git(repo.dir, ['merge', '-q', '--no-ff', '-m', 'merge', 'side'], repo.env);
    const { runner, ran } = watched(repo.dir, repo.env);

    const checks = await lastSignatures(runner, 'HEAD', ['capsules/s/capsule.md'], { objects: batch });

    expect(checks.get('capsules/s/capsule.md')?.commit).toBe(onSide);
    expect(ran.some((args) => args.includes('log'))).toBe(true);
  });

  it('asks git when the commit that changed a path carries a signature, and says what git says of it', async () => {
    save(repo.dir, repo.env, 'base', 'b');
    // A commit with an ssh signature header that does not verify: git says B (bad), never N.
    writeFileSync(join(repo.dir, 'allowed-signers'), '');
    git(repo.dir, ['config', 'gpg.ssh.allowedSignersFile', join(repo.dir, 'allowed-signers')], repo.env);
    git(repo.dir, ['update-index', '--add', '--cacheinfo', `100644,${hashBlob(repo.dir, repo.env, 'signed')},capsules/g/capsule.md`], repo.env);
    const tree = git(repo.dir, ['write-tree'], repo.env);
    const parent = git(repo.dir, ['rev-parse', 'HEAD'], repo.env);
    const raw = `tree ${tree}\nparent ${parent}\nauthor t <t@example.invalid> 1700000000 +0000\ncommitter t <t@example.invalid> 1700000000 +0000\ngpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lHAAAAAQ==\n -----END SSH SIGNATURE-----\n\nsigned\n`;
    writeFileSync(join(repo.dir, '.commit'), raw);
    const signed = git(repo.dir, ['hash-object', '-t', 'commit', '-w', join(repo.dir, '.commit')], repo.env);
    git(repo.dir, ['update-ref', 'refs/heads/main', signed], repo.env);
    save(repo.dir, repo.env, 'later', 'l'); // the newest commit is unsigned: only the one that changed the path counts
    const { runner } = watched(repo.dir, repo.env);

    const checks = await lastSignatures(runner, 'HEAD', ['capsules/g/capsule.md'], { objects: batch });

    expect(checks.get('capsules/g/capsule.md')).toMatchObject({ commit: signed, status: 'B', verified: false });
  });

  it('asks git for a path that names a folder: its log names the files below it', async () => {
    save(repo.dir, repo.env, 'capsules/d/capsule.md', 'd');
    expect(await unsignedLastCommits(batch, 'HEAD', ['capsules/d'])).toBeNull();
  });

  it('asks git past the walk limit, and for a path no commit holds', async () => {
    const old = save(repo.dir, repo.env, 'capsules/o/capsule.md', 'o');
    for (let i = 0; i < 3; i++) save(repo.dir, repo.env, 'other', String(i));
    expect(await unsignedLastCommits(batch, 'HEAD', ['capsules/o/capsule.md'], 3)).toBeNull();
    expect((await unsignedLastCommits(batch, 'HEAD', ['capsules/o/capsule.md'], 4))?.get('capsules/o/capsule.md')?.commit).toBe(old);
    expect(await unsignedLastCommits(batch, 'HEAD', ['capsules/never/capsule.md'])).toBeNull();
  });

  it('is not used where grafts or a shallow boundary change the history git walks', async () => {
    const first = save(repo.dir, repo.env, 'a', '1');
    const second = save(repo.dir, repo.env, 'b', '2');
    const env = repo.env;
    expect(historyAsStored(join(repo.dir, '.git'), env)).toBe(true);
    expect(historyAsStored(join(repo.dir, '.git'), { ...env, GIT_SHALLOW_FILE: join(repo.dir, 'shallow') })).toBe(false);
    expect(historyAsStored(join(repo.dir, '.git'), { ...env, GIT_GRAFT_FILE: join(repo.dir, 'grafts') })).toBe(false);
    writeFileSync(join(repo.dir, '.git', 'info', 'grafts'), `${second}\n`);
    expect(historyAsStored(join(repo.dir, '.git'), env)).toBe(false);
    // With the graft, git says `a` came in with the grafted root; the objects alone would say `first`.
    const { runner } = watched(repo.dir, env);
    expect((await lastSignatures(runner, 'HEAD', ['a'])).get('a')?.commit).toBe(second);
    expect((await unsignedLastCommits(batch, 'HEAD', ['a']))?.get('a')?.commit).toBe(first);
    // The store checks before it reads without git.
    const store = await openStore({ cwd: repo.dir, env });
    try {
      expect((await store.signaturesOf(['a'], 'HEAD')).get('a')?.commit).toBe(second);
    } finally {
      await store.close();
    }
  });
});
