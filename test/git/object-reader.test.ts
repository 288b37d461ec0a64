import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CatFileBatch, type GitObject } from '../../lib/git/cat-file-batch';
import { createGitRunner } from '../../lib/git/git-runner';
import { FileObjectReader } from '../../lib/git/object-reader';
import { copyOfTemplate } from '../support/repo-template';

/** A repository with history worth deltas: one file grown over many commits, plus others; made once per file, copied per test (test/support/repo-template.ts). */
function makeRepo() {
  const envAt = (root: string) => ({ PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(root, '.gitconfig') });
  const gitAt = (env: NodeJS.ProcessEnv, dir: string) => (args: string[], cwd = dir) => execFileSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 }).trim();
  const root = copyOfTemplate('objects', 'capsule-objects-', (at) => {
    const dir = join(at, 'repo');
    const env = envAt(at);
    const git = gitAt(env, dir);
    execFileSync('git', ['init', '-q', '-b', 'main', dir], { env });
    git(['config', 'user.name', 'Objects']);
    git(['config', 'user.email', 'objects@example.com']);
    let text = '';
    for (let i = 0; i < 30; i += 1) {
      text += `line ${i}: ${'the widget parser handles nested lists '.repeat(3)}\n`;
      writeFileSync(join(dir, 'grow.txt'), text);
      writeFileSync(join(dir, `f${i % 4}.txt`), `version ${i}\n`);
      git(['add', '-A']);
      git(['commit', '-qm', `commit ${i}`]);
    }
  });
  const dir = join(root, 'repo');
  const env = envAt(root);
  const git = gitAt(env, dir);
  const everyObject = () => git(['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).split('\n');
  const dirsOf = (repoDir: string) => ({ gitDir: join(repoDir, '.git'), commonDir: join(repoDir, '.git') });
  /** A reader that cannot start git (empty PATH) unless `withGit`: whatever it answers came from the files. */
  const reader = (repoDir = dir, withGit = false) => new FileObjectReader(dirsOf(repoDir), createGitRunner({ cwd: repoDir, env: withGit ? env : { ...env, PATH: '' } }));
  return { root, dir, env, git, everyObject, reader, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const same = (o: GitObject | null) => (o === null ? null : { oid: o.oid, type: o.type, content: o.content.toString('base64') });

describe('FileObjectReader', () => {
  let repo: ReturnType<typeof makeRepo>;
  let batch: CatFileBatch;
  let reader: FileObjectReader;
  beforeEach(() => {
    repo = makeRepo();
    batch = new CatFileBatch(createGitRunner({ cwd: repo.dir, env: repo.env }));
  });
  afterEach(async () => {
    await reader?.close();
    await batch.close();
    repo.cleanup();
  });

  /** Every object and every name form read by both, compared byte for byte. */
  async function expectSameAsGit(names = repo.everyObject()) {
    reader = repo.reader();
    for (const name of [...names, 'HEAD', 'refs/heads/main', 'HEAD:grow.txt', 'refs/heads/main:f1.txt', 'HEAD^{tree}', 'HEAD:', 'HEAD:missing.txt', 'HEAD:grow.txt/below', 'refs/heads/nothing-here']) {
      expect([name, same(await reader.read(name))]).toEqual([name, same(await batch.read(name))]);
    }
  }

  it('reads loose objects as git does', async () => {
    await expectSameAsGit();
  });

  it('reads packed objects through offset deltas as git does', async () => {
    repo.git(['repack', '-a', '-d', '-q', '--depth=50', '--window=50']);
    await expectSameAsGit();
  });

  it('reads packed objects through deltas against a base named by id', async () => {
    repo.git(['-c', 'repack.useDeltaBaseOffset=false', 'repack', '-a', '-d', '-q', '--depth=50', '--window=50']);
    await expectSameAsGit();
  });

  it('reads an index that keeps offsets past 1,000 bytes in its 64-bit table', async () => {
    repo.git(['repack', '-a', '-d', '-q']);
    const packDir = join(repo.dir, '.git', 'objects', 'pack');
    const pack = readdirSync(packDir).find((n) => n.endsWith('.pack'))!;
    rmSync(join(packDir, pack.replace(/\.pack$/, '.idx')));
    repo.git(['index-pack', '--index-version=2,1000', join(packDir, pack)]);
    await expectSameAsGit();
  });

  it('reads objects that only an alternate holds, and refs from packed-refs', async () => {
    const clone = join(repo.root, 'clone');
    execFileSync('git', ['clone', '-q', '--shared', repo.dir, clone], { env: repo.env });
    repo.git(['pack-refs', '--all'], clone);
    reader = repo.reader(clone);
    const cloneBatch = new CatFileBatch(createGitRunner({ cwd: clone, env: repo.env }));
    try {
      for (const name of [...repo.everyObject(), 'refs/heads/main:grow.txt', 'HEAD']) {
        expect(same(await reader.read(name))).toEqual(same(await cloneBatch.read(name)));
      }
    } finally {
      await cloneBatch.close();
    }
  });

  it('reads from the packs a repack wrote after its first look, the packs it had listed being gone', async () => {
    repo.git(['repack', '-a', '-d', '-q']);
    writeFileSync(join(repo.dir, 'late.txt'), 'written after the first pack\n');
    repo.git(['add', '-A']);
    repo.git(['commit', '-qm', 'late']);
    repo.git(['repack', '-d', '-q']); // a second, newer pack holding only the late commit
    reader = repo.reader();
    expect(same(await reader.read('HEAD:late.txt'))).toEqual(same(await batch.read('HEAD:late.txt')));
    repo.git(['repack', '-a', '-d', '-q']); // both packs replaced by one; the older was never opened
    for (const name of [...repo.everyObject(), 'HEAD:grow.txt', 'refs/heads/main:f1.txt']) {
      expect([name, same(await reader.read(name))]).toEqual([name, same(await batch.read(name))]);
    }
  });

  it('answers every read as git does while git gc repacks and prunes beside it', async () => {
    const names = [...repo.everyObject(), 'HEAD:grow.txt', 'refs/heads/main^{tree}'];
    const expected = new Map<string, ReturnType<typeof same>>();
    for (const name of names) expected.set(name, same(await batch.read(name)));
    reader = repo.reader(repo.dir, true);
    let running = true;
    let runs = 0;
    const gcLoop = (async () => {
      for (let i = 0; i < 4; i += 1) {
        await new Promise<void>((done, fail) => execFile('git', ['-c', 'gc.autoDetach=false', 'gc', '--quiet', i % 2 ? '--aggressive' : '--prune=now'], { cwd: repo.dir, env: repo.env }, (err) => (err ? fail(err) : done())));
        runs += 1;
      }
      running = false;
    })();
    let rounds = 0;
    while (running || rounds === 0) {
      // A fresh reader each round (a reader keeps what it read), as each hook opens the store anew.
      await reader.close();
      reader = repo.reader(repo.dir, true);
      for (const name of names) expect([name, same(await reader.read(name))]).toEqual([name, expected.get(name)]);
      rounds += 1;
      await new Promise((r) => setImmediate(r));
    }
    await gcLoop;
    expect(runs).toBe(4);
  });

  it('asks git for names it does not parse and for objects its files do not hold', async () => {
    reader = repo.reader(repo.dir, true);
    expect(same(await reader.read('HEAD~3:grow.txt'))).toEqual(same(await batch.read('HEAD~3:grow.txt')));
    expect(await reader.read('f'.repeat(40))).toBeNull();
  });

  it('fails like git would have when it must ask git and git cannot start', async () => {
    reader = repo.reader();
    await expect(reader.read('HEAD~3:grow.txt')).rejects.toMatchObject({ code: 'GIT_MISSING' });
  });
});
