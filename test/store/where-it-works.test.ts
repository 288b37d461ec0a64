import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../lib/store/open-store';
import { capsuleText, cleanup, git, makeRepo, tempDir, testId } from './support/temp-repo';
import { identityStamp, withoutIdentity } from '../support/capsule-doc';

const NOW = new Date('2026-11-29T21:00:00Z');

/** Everything a write must leave alone: refs other than the memory ref, HEAD, index, work tree. */
function snapshot(dir: string, env: NodeJS.ProcessEnv, gitDir: string): Record<string, string> {
  const refs = git(dir, ['for-each-ref', '--format=%(refname) %(objectname)'], env).split('\n').filter((l) => !l.startsWith('refs/heads/capsules ')).join('\n');
  const headFile = readFileSync(join(gitDir, 'HEAD'), 'utf8');
  const index = existsSync(join(gitDir, 'index')) ? readFileSync(join(gitDir, 'index')).toString('base64') : '';
  const bare = git(dir, ['rev-parse', '--is-bare-repository'], env) === 'true';
  const status = bare ? '' : git(dir, ['status', '--porcelain=v1', '--untracked-files=all', '--ignored'], env);
  return { refs, headFile, index, status };
}

async function writeAndCheck(dir: string, env: NodeJS.ProcessEnv, gitDir: string): Promise<void> {
  const before = snapshot(dir, env, gitDir);
  const store = await openStore({ cwd: dir, env });
  try {
    await store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    await store.setStatus(testId(1), 'resumed', { writer: 'w', now: NOW });
    await store.writeCapsule(capsuleText({ id: testId(2) }), { now: NOW, replace: true });
    expect((await store.listIndex()).map((e) => e.id)).toEqual([testId(2), testId(1)]);
  } finally {
    await store.close();
  }
  expect(snapshot(dir, env, gitDir)).toEqual(before);
  expect(git(dir, ['rev-list', '--count', 'refs/heads/capsules'], env)).toBe('4');
}

describe('writes in every repository state', () => {
  it('work in a normal clone with a dirty index and work tree, touching none of it', async () => {
    const { dir, env } = makeRepo();
    writeFileSync(join(dir, 'a.txt'), 'staged\n');
    git(dir, ['add', 'a.txt'], env);
    writeFileSync(join(dir, 'a.txt'), 'dirty\n');
    writeFileSync(join(dir, 'untracked.txt'), 'u\n');
    await writeAndCheck(dir, env, join(dir, '.git'));
    cleanup(dir);
  });

  it('work from a linked worktree and land in the shared refs', async () => {
    const { dir, env } = makeRepo();
    const wt = join(tempDir(), 'wt');
    git(dir, ['worktree', 'add', '-q', '-b', 'feature', wt], env);
    const wtGitDir = git(wt, ['rev-parse', '--absolute-git-dir'], env);
    await writeAndCheck(wt, env, wtGitDir);
    expect(git(dir, ['rev-list', '--count', 'capsules'], env)).toBe('4');
    const store = await openStore({ cwd: wt, env });
    expect(store.commonDir).toBe(join(dir, '.git'));
    expect(store.repoDir).toBe(wt);
    await store.close();
    cleanup(dir, wt);
  });

  it('work mid-merge with conflicts', async () => {
    const { dir, env } = makeRepo();
    writeFileSync(join(dir, 'f'), 'base\n');
    git(dir, ['add', 'f'], env);
    git(dir, ['commit', '-qm', 'base'], env);
    git(dir, ['checkout', '-qb', 'other'], env);
    writeFileSync(join(dir, 'f'), 'other\n');
    git(dir, ['commit', '-qam', 'other'], env);
    git(dir, ['checkout', '-q', 'main'], env);
    writeFileSync(join(dir, 'f'), 'main\n');
    git(dir, ['commit', '-qam', 'main'], env);
    expect(() => git(dir, ['merge', 'other'], env)).toThrow();
    expect(existsSync(join(dir, '.git', 'MERGE_HEAD'))).toBe(true);
    await writeAndCheck(dir, env, join(dir, '.git'));
    expect(existsSync(join(dir, '.git', 'MERGE_HEAD'))).toBe(true);
    cleanup(dir);
  });

  it('work mid-rebase on a detached HEAD', async () => {
    const { dir, env } = makeRepo();
    writeFileSync(join(dir, 'f'), 'base\n');
    git(dir, ['add', 'f'], env);
    git(dir, ['commit', '-qm', 'base'], env);
    git(dir, ['checkout', '-qb', 'topic'], env);
    writeFileSync(join(dir, 'f'), 'topic\n');
    git(dir, ['commit', '-qam', 'topic'], env);
    git(dir, ['checkout', '-q', 'main'], env);
    writeFileSync(join(dir, 'f'), 'main\n');
    git(dir, ['commit', '-qam', 'main'], env);
    git(dir, ['checkout', '-q', 'topic'], env);
    expect(() => git(dir, ['rebase', 'main'], env)).toThrow();
    expect(existsSync(join(dir, '.git', 'rebase-merge'))).toBe(true);
    await writeAndCheck(dir, env, join(dir, '.git'));
    cleanup(dir);
  });

  it('work on a detached HEAD', async () => {
    const { dir, env } = makeRepo();
    git(dir, ['checkout', '-q', '--detach'], env);
    await writeAndCheck(dir, env, join(dir, '.git'));
    cleanup(dir);
  });

  it('work in a bare repository', async () => {
    const { dir, env } = makeRepo({ bare: true });
    await writeAndCheck(dir, env, dir);
    const store = await openStore({ cwd: dir, env });
    expect(store.repoDir).toBe(dir);
    await store.close();
    cleanup(dir);
  });

  it('work when the main branch has no commits yet', async () => {
    const { dir, env } = makeRepo({ empty: true });
    await writeAndCheck(dir, env, join(dir, '.git'));
    expect(() => git(dir, ['rev-parse', '--verify', 'HEAD'], env)).toThrow();
    cleanup(dir);
  });

  it('never run the user\'s hooks, even a reference-transaction hook that refuses', async () => {
    const { dir, env } = makeRepo();
    const hooks = join(dir, 'my-hooks');
    mkdirSync(hooks);
    for (const name of ['reference-transaction', 'pre-auto-gc', 'post-commit', 'pre-commit']) {
      writeFileSync(join(hooks, name), `#!/bin/sh\necho ran >> "${join(dir, 'hook-ran')}"\nexit 1\n`);
      chmodSync(join(hooks, name), 0o755);
    }
    git(dir, ['config', 'core.hooksPath', hooks], env);
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'my-hooks/\nhook-ran\n');
    await writeAndCheck(dir, env, join(dir, '.git'));
    expect(existsSync(join(dir, 'hook-ran'))).toBe(false);
    cleanup(dir);
  });

  it('never sign or prompt with commit.gpgSign=true and a signing program that fails', async () => {
    const { dir, env } = makeRepo();
    git(dir, ['config', 'commit.gpgSign', 'true'], env);
    git(dir, ['config', 'gpg.program', '/bin/false'], env);
    await writeAndCheck(dir, env, join(dir, '.git'));
    expect(git(dir, ['log', '--format=%G?', 'capsules'], env).split('\n')).toEqual(['N', 'N', 'N', 'N']);
    cleanup(dir);
  });

  it('use a fixed fallback identity when no user.name or user.email is set', async () => {
    const { dir, env } = makeRepo({ empty: true, identity: false });
    const noIdentity = { ...env, EMAIL: '', GIT_AUTHOR_NAME: undefined, GIT_COMMITTER_NAME: undefined };
    await writeAndCheck(dir, noIdentity, join(dir, '.git'));
    expect(git(dir, ['log', '-1', '--format=%an <%ae>|%cn <%ce>', 'capsules'], env)).toBe('git-capsule <git-capsule@localhost>|git-capsule <git-capsule@localhost>');
    cleanup(dir);
  });

  it('use the user\'s identity when one is configured', async () => {
    const { dir, env } = makeRepo();
    await writeAndCheck(dir, env, join(dir, '.git'));
    expect(git(dir, ['log', '-1', '--format=%an <%ae>', 'capsules'], env)).toBe('Test User <test@example.com>');
    cleanup(dir);
  });
});

describe('the memory branch read with plain git', () => {
  it('reads as a journal and shows a capsule by path', async () => {
    const { dir, env } = makeRepo();
    const store = await openStore({ cwd: dir, env });
    const { path } = await store.writeCapsule(capsuleText({ id: testId(1) }), { now: NOW });
    await store.close();
    expect(git(dir, ['log', '--format=%s', 'capsules'], env).split('\n')).toEqual([`write ${testId(1)}: Make the store write capsules`, 'init: git-capsule memory branch']);
    // The document as written, plus the three identity lines the store stamps last in its frontmatter.
    const shown = execFileSync('git', ['show', `capsules:${path}`], { cwd: dir, env, encoding: 'utf8' });
    expect(shown).toMatch(identityStamp('test@example.com'));
    expect(withoutIdentity(shown)).toBe(capsuleText({ id: testId(1) }));
    cleanup(dir);
  });
});
