import { execFileSync } from 'node:child_process';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { FALLBACK_IDENTITY, gitEnv, resolveIdentity, WRITE_CONFIG } from '../../lib/git/git-env';
import { createGitRunner } from '../../lib/git/git-runner';
import { FAST_IMPORT_ARGS, buildImportStream } from '../../lib/git/fast-import';
import { cleanup, git, makeRepo } from '../store/support/temp-repo';

describe('createGitRunner', () => {
  let repo: { dir: string; env: NodeJS.ProcessEnv };
  beforeAll(() => (repo = makeRepo()));
  afterAll(() => cleanup(repo.dir));

  it('passes arguments as an array, never through a shell', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    const out = await runner.run(['hash-object', '--stdin'], { input: '$(touch pwned); `id`' });
    expect(out.stdout.trim()).toBe(hashOf(repo, '$(touch pwned); `id`'));
  });

  it('runs whileRunning once the input is handed to git, before the call settles', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    const events: string[] = [];
    const call = runner.run(['hash-object', '--stdin'], { input: 'x', whileRunning: () => events.push('while') });
    events.push('returned');
    await call.then(() => events.push('settled'));
    expect(events).toEqual(['while', 'returned', 'settled']);
  });

  it('throws GIT_FAILED with args, exit code and stderr when git fails', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    await expect(runner.run(['rev-parse', '--verify', 'no-such-ref'])).rejects.toMatchObject({
      code: 'GIT_FAILED',
      data: { args: ['rev-parse', '--verify', 'no-such-ref'], exitCode: 128, stderr: expect.stringContaining('Needed a single revision') },
    });
  });

  it("words GIT_FAILED as a sentence: what failed, git's fatal line (not its trailing advice), what to do", async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    const err = await runner.run(['-c', 'alias.fails=!echo "fatal: the real reason" >&2; echo "hint: advice after it" >&2; exit 3', 'fails']).then(() => null, (e: Error) => e);
    expect(err?.message).toMatch(/^git -c fails failed with exit 3: git said "fatal: the real reason"; check the repository \(git status, git fsck\) and run it again/);
  });

  it('treats the exit codes it was told to expect as answers', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    const out = await runner.run(['config', '--get', 'no.such-key'], { okExitCodes: [1] });
    expect(out.exitCode).toBe(1);
  });

  it('throws GIT_MISSING when git is not on PATH', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: { ...repo.env, PATH: '/nonexistent' } });
    await expect(runner.run(['--version'])).rejects.toMatchObject({ code: 'GIT_MISSING' });
  });

  it('kills git and throws GIT_TIMEOUT past its timeout', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    await expect(runner.run(['-c', 'alias.wait=!sleep 5', 'wait'], { timeoutMs: 200 })).rejects.toMatchObject({ code: 'GIT_TIMEOUT', data: { timeoutMs: 200 } });
  });
});

describe('gitEnv', () => {
  it('turns off prompts, editors and pagers and keeps the caller environment', () => {
    const env = gitEnv({ GIT_DIR: '/x/.git', HOME: '/home/u' });
    expect(env).toMatchObject({ GIT_DIR: '/x/.git', HOME: '/home/u', GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: ':', GIT_PAGER: 'cat', LC_ALL: 'C' });
  });
});

describe('resolveIdentity', () => {
  it('uses the fixed fallback when nothing names an identity', () => {
    expect(resolveIdentity({}, {})).toEqual(FALLBACK_IDENTITY);
  });

  it('prefers GIT_COMMITTER_* over the config and strips characters that would break the header', () => {
    expect(resolveIdentity({ GIT_COMMITTER_NAME: 'Env <x>' }, { name: 'Cfg', email: 'c@e\n' })).toEqual({ name: 'Env x', email: 'c@e' });
  });
});

describe('fast-import arguments', () => {
  it('run quiet, require done, and switch off hooks and signing', () => {
    expect(FAST_IMPORT_ARGS).toEqual(['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false', 'fast-import', '--quiet', '--done']);
    expect(WRITE_CONFIG).toContain('core.hooksPath=/dev/null');
  });

  it('leave out from on a root commit and count data in bytes', () => {
    const stream = buildImportStream('refs/heads/capsules', [
      { identity: { name: 'a', email: 'a@b' }, epochSeconds: 5, message: 'é\n', from: null, files: new Map([['FORMAT', 'ü'], ['old', null]]) },
    ]);
    expect(stream).toBe('commit refs/heads/capsules\nmark :1\nauthor a <a@b> 5 +0000\ncommitter a <a@b> 5 +0000\ndata 3\né\n\nM 100644 inline FORMAT\ndata 2\nü\nD old\n\nget-mark :1\ndone\n');
  });
});

describe('CatFileBatch', () => {
  let repo: { dir: string; env: NodeJS.ProcessEnv };
  beforeAll(() => (repo = makeRepo()));
  afterAll(() => cleanup(repo.dir));

  it('reads many objects through one process, in order, and null for a missing one', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    const oids = ['one\n', 'two\0binary\n', ''].map((content) => hashOf(repo, content, true));
    const batch = new CatFileBatch(runner);
    try {
      const objects = await Promise.all([...oids.map((o) => batch.read(o)), batch.read('HEAD:missing'), batch.read('HEAD')]);
      expect(objects.slice(0, 3).map((o) => o?.content.toString('utf8'))).toEqual(['one\n', 'two\0binary\n', '']);
      expect(objects[3]).toBeNull();
      expect(objects[4]?.type).toBe('commit');
    } finally {
      await batch.close();
    }
  });

  it('asks git for the reads of one tick in one write, and for a later read in another', async () => {
    const batch = new CatFileBatch(createGitRunner({ cwd: repo.dir, env: repo.env }));
    const child = batch.start();
    const writes: string[] = [];
    const write = child.stdin.write.bind(child.stdin) as (chunk: string) => boolean;
    child.stdin.write = ((chunk: string) => (writes.push(chunk), write(chunk))) as typeof child.stdin.write;
    try {
      const [head, tree] = await Promise.all([batch.read('HEAD'), batch.read('HEAD^{tree}')]);
      expect([head?.type, tree?.type]).toEqual(['commit', 'tree']);
      await batch.read('HEAD');
      expect(writes).toEqual(['HEAD\nHEAD^{tree}\n', 'HEAD\n']);
    } finally {
      await batch.close();
    }
  });

  it('answers a read asked in the very tick the batch is closed', async () => {
    const batch = new CatFileBatch(createGitRunner({ cwd: repo.dir, env: repo.env }));
    const read = batch.read('HEAD');
    const closed = batch.close();
    expect((await read)?.type).toBe('commit');
    await closed;
  });

  it('keeps only the first maxBytes of an object over its bound, reports its size, and reads on', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    const big = hashOf(repo, 'x'.repeat(3 * 1024 * 1024), true);
    const small = hashOf(repo, 'after\n', true);
    const batch = new CatFileBatch(runner);
    try {
      const [huge, next, whole] = await Promise.all([batch.read(big, { maxBytes: 1000 }), batch.read(small), batch.read(big)]);
      expect(huge).toMatchObject({ size: 3 * 1024 * 1024, truncated: true });
      expect(huge?.content.length).toBe(1000);
      expect(next?.content.toString('utf8')).toBe('after\n');
      expect(whole).toMatchObject({ size: 3 * 1024 * 1024, truncated: false });
      expect(whole?.content.toString('utf8') === 'x'.repeat(3 * 1024 * 1024)).toBe(true);
    } finally {
      await batch.close();
    }
  });

  it('reads objects whose header and bytes arrive split across many pipe chunks', async () => {
    const runner = createGitRunner({ cwd: repo.dir, env: repo.env });
    const contents = Array.from({ length: 40 }, (_, i) => `${i}:${'abc'.repeat(i * 997)}\n`);
    const oids = contents.map((c) => hashOf(repo, c, true));
    const batch = new CatFileBatch(runner);
    try {
      const objects = await Promise.all(oids.map((o) => batch.read(o)));
      expect(objects.map((o) => o?.content.toString('utf8'))).toEqual(contents);
    } finally {
      await batch.close();
    }
  });
});

function hashOf(repo: { dir: string; env: NodeJS.ProcessEnv }, content: string, write = false): string {
  return execFileSync('git', ['hash-object', ...(write ? ['-w'] : []), '--stdin'], { cwd: repo.dir, env: repo.env, input: content, encoding: 'utf8' }).trim();
}
