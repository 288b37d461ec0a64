import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capsuleValues, remoteNamesIn } from '../../lib/git/config-sources';
import { createGitRunner } from '../../lib/git/git-runner';
import { headBranchFromFile } from '../../lib/git/ref-files';
import { readCachedConfig } from '../../lib/local-state/cached-config';
import { resolveSyncRemote } from '../../lib/sync/remote';
import { recordingRunner } from '../git/support/recording-runner';
import { cleanup, git, makeRepo, tempDir } from '../store/support/temp-repo';

describe('the remote sync picks', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const dirs: string[] = [];
  beforeEach(() => {
    ({ dir, env } = makeRepo());
    dirs.push(dir);
  });
  afterEach(() => cleanup(...dirs.splice(0)));

  /** The remote as sync picks it from the config snapshot and the HEAD file, the git calls that took, and what git alone would pick. */
  async function pick() {
    const plain = createGitRunner({ cwd: dir, env });
    const snapshot = await readCachedConfig(plain, { racyMs: 0 });
    const runner = recordingRunner(plain);
    const known = await resolveSyncRemote(runner, undefined, { values: snapshot.values, gitDir: snapshot.dirs!.gitDir }).catch((e: Error) => `error: ${e.message}`);
    const byGit = await resolveSyncRemote(plain, undefined).catch((e: Error) => `error: ${e.message}`);
    return { known, byGit, calls: runner.calls.map((c) => c.args.join(' ')) };
  }

  it("is the current branch's upstream remote, keeping the case and dots of its name, without starting git", async () => {
    git(dir, ['remote', 'add', 'origin', 'https://example.com/a.git'], env);
    git(dir, ['remote', 'add', 'Up.Stream', 'https://example.com/b.git'], env);
    git(dir, ['config', 'branch.main.remote', 'Up.Stream'], env);
    expect(await pick()).toEqual({ known: 'Up.Stream', byGit: 'Up.Stream', calls: [] });
  });

  it('is origin on a detached HEAD or a branch without an upstream, without starting git', async () => {
    git(dir, ['remote', 'add', 'fork', 'https://example.com/f.git'], env);
    git(dir, ['remote', 'add', 'origin', 'https://example.com/a.git'], env);
    git(dir, ['config', 'branch.other.remote', 'fork'], env);
    expect(await pick()).toEqual({ known: 'origin', byGit: 'origin', calls: [] });
    git(dir, ['checkout', '-q', '--detach'], env);
    expect(await pick()).toEqual({ known: 'origin', byGit: 'origin', calls: [] });
  });

  it('is not a local upstream (".") and says which remotes there are when none is origin', async () => {
    git(dir, ['remote', 'add', 'fork', 'https://example.com/f.git'], env);
    git(dir, ['config', 'branch.main.remote', '.'], env);
    const r = await pick();
    expect(r.known).toMatch(/no remote named origin .* this repository has fork: name one/);
    expect(r).toEqual({ known: r.byGit, byGit: r.byGit, calls: [] });
  });

  it('asks git when the config files name no remote (git has other sources: .git/remotes/, .git/branches/), then says to add one', async () => {
    mkdirSync(join(dir, '.git', 'remotes'), { recursive: true });
    writeFileSync(join(dir, '.git', 'remotes', 'legacy'), 'URL: https://example.com/l.git\n');
    const r = await pick();
    expect(r.calls[0]).toBe('remote');
    expect(r.known).toMatch(/has no remote to sync the memory branch with .*git remote add origin <url>/);
    expect(r.known).toBe(r.byGit);
  });
});

describe('the config values sync reads', () => {
  it('name the remotes but never keep their URLs, which may carry a credential', () => {
    const values = capsuleValues([
      { origin: 'file:.git/config', key: 'remote.origin.url', value: 'https://user:ghp_secretsecretsecret@example.com/a.git' },
      { origin: 'file:.git/config', key: 'remote.origin.fetch', value: '+refs/heads/*:refs/remotes/origin/*' },
      { origin: 'file:.git/config', key: 'remote.Fork.pushurl', value: 'https://example.com/f.git' },
      { origin: 'file:.git/config', key: 'remote.pushdefault', value: 'origin' },
      { origin: 'file:.git/config', key: 'branch.Feature.remote', value: 'Fork' },
    ]);
    expect(remoteNamesIn(values)).toEqual(['origin', 'Fork']);
    expect(values['branch.Feature.remote']).toBe('Fork');
    expect(JSON.stringify(values)).not.toContain('secret');
  });

  it('say "none found" rather than an empty list when the config names no remote', () => {
    expect(remoteNamesIn(capsuleValues([{ origin: 'file:.git/config', key: 'user.name', value: 'A' }]))).toBeNull();
  });
});

describe('headBranchFromFile', () => {
  const dirs: string[] = [];
  afterEach(() => cleanup(...dirs.splice(0)));
  function headSaying(text: string): string {
    const d = tempDir('head-file-');
    dirs.push(d);
    writeFileSync(join(d, 'HEAD'), text);
    return d;
  }

  it('names the branch of a symbolic HEAD, null for a detached one', () => {
    expect(headBranchFromFile(headSaying('ref: refs/heads/feature/x\n'))).toBe('feature/x');
    expect(headBranchFromFile(headSaying(`${'a'.repeat(40)}\n`))).toBeNull();
  });

  it("leaves to git what the file cannot say: reftable's placeholder, a ref outside refs/heads/, garbage, no file", () => {
    expect(headBranchFromFile(headSaying('ref: refs/heads/.invalid\n'))).toBeUndefined();
    expect(headBranchFromFile(headSaying('ref: refs/remotes/origin/main\n'))).toBeUndefined();
    expect(headBranchFromFile(headSaying('garbage\n'))).toBeUndefined();
    expect(headBranchFromFile(join(headSaying(''), 'missing'))).toBeUndefined();
  });
});
