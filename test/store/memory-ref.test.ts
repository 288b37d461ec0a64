import { refFormatProblem, resolveMemoryRef } from '../../lib/store/memory-ref';
import { openStore } from '../../lib/store/open-store';
import { capsuleText, cleanup, git, makeRepo } from './support/temp-repo';

describe('resolveMemoryRef', () => {
  it('defaults to refs/heads/capsules when capsule.ref is not declared', () => {
    expect(resolveMemoryRef(undefined)).toBe('refs/heads/capsules');
  });

  it('uses a declared ref under refs/', () => {
    expect(resolveMemoryRef('refs/capsule-memory/main')).toBe('refs/capsule-memory/main');
  });

  it.each([
    ['', 'empty'],
    ['heads/capsules', 'outside refs/'],
    ['capsules', 'outside refs/'],
    ['refs/capsules', 'no namespace'],
    ['refs/heads/a..b', 'double dot'],
    ['refs/heads/a b', 'space'],
    ['refs/heads/a~1', 'tilde'],
    ['refs/heads/x.lock', '.lock'],
    ['refs/heads/.hidden', 'leading dot'],
    ['refs/heads/x/', 'trailing slash'],
    ['refs/heads/x@{1}', '@{'],
  ])('throws MEMORY_ROOT for %j (%s) and never falls back to the default', (declared) => {
    expect(() => resolveMemoryRef(declared)).toThrow(expect.objectContaining({ code: 'MEMORY_ROOT', message: expect.stringMatching(/^MEMORY-ROOT:/) }));
  });

  it('accepts what git check-ref-format accepts', () => {
    expect(refFormatProblem('refs/heads/capsules')).toBeNull();
    expect(refFormatProblem('refs/notes/capsule-memory.v1')).toBeNull();
  });
});

describe('openStore with capsule.ref', () => {
  it('writes to the declared ref and not to the default', async () => {
    const { dir, env } = makeRepo();
    git(dir, ['config', 'capsule.ref', 'refs/capsule-memory/main'], env);
    const store = await openStore({ cwd: dir, env });
    try {
      await store.writeCapsule(capsuleText(), { now: new Date('2026-11-29T20:00:00Z') });
      expect(store.ref).toBe('refs/capsule-memory/main');
      expect(git(dir, ['for-each-ref', '--format=%(refname)'], env).split('\n').sort()).toEqual(['refs/capsule-memory/main', 'refs/heads/main']);
    } finally {
      await store.close();
      cleanup(dir);
    }
  });

  it('throws MEMORY_ROOT on a malformed declared ref even when the default branch exists', async () => {
    const { dir, env } = makeRepo();
    const first = await openStore({ cwd: dir, env });
    await first.writeCapsule(capsuleText(), { now: new Date() });
    await first.close();
    git(dir, ['config', 'capsule.ref', 'heads/capsules'], env);
    await expect(openStore({ cwd: dir, env })).rejects.toMatchObject({ code: 'MEMORY_ROOT', data: { declared: 'heads/capsules' } });
    cleanup(dir);
  });

  it('throws MEMORY_ROOT when the declared ref exists but is not a memory branch, and writes nothing', async () => {
    const { dir, env } = makeRepo();
    git(dir, ['config', 'capsule.ref', 'refs/heads/main'], env);
    const before = git(dir, ['rev-parse', 'refs/heads/main'], env);
    const store = await openStore({ cwd: dir, env });
    try {
      await expect(store.writeCapsule(capsuleText(), { now: new Date() })).rejects.toMatchObject({ code: 'MEMORY_ROOT', message: expect.stringMatching(/^MEMORY-ROOT:/) });
      await expect(store.listIndex()).rejects.toMatchObject({ code: 'MEMORY_ROOT' });
      expect(git(dir, ['rev-parse', 'refs/heads/main'], env)).toBe(before);
    } finally {
      await store.close();
      cleanup(dir);
    }
  });

  it('throws MEMORY_ROOT when the declared ref points at something that is not a commit', async () => {
    const { dir, env } = makeRepo();
    const blob = git(dir, ['hash-object', '-w', '--stdin'], env);
    git(dir, ['update-ref', 'refs/capsule-memory/main', blob], env);
    git(dir, ['config', 'capsule.ref', 'refs/capsule-memory/main'], env);
    const store = await openStore({ cwd: dir, env });
    try {
      await expect(store.tip()).rejects.toMatchObject({ code: 'MEMORY_ROOT', data: { type: 'blob' } });
    } finally {
      await store.close();
      cleanup(dir);
    }
  });

  it('throws NOT_A_REPO outside a repository', async () => {
    const { tempDir } = await import('./support/temp-repo');
    const dir = tempDir();
    await expect(openStore({ cwd: dir, env: { ...process.env, GIT_CEILING_DIRECTORIES: dir.replace(/\/[^/]+$/, '') } })).rejects.toMatchObject({ code: 'NOT_A_REPO' });
    cleanup(dir);
  });
});

describe('repoConfigFrom', () => {
  it('reads capsule.ref and the identity from one git config call', async () => {
    const { createGitRunner } = await import('../../lib/git/git-runner');
    const { readCachedConfig } = await import('../../lib/local-state/cached-config');
    const { CONFIG_LIST_ARGS } = await import('../../lib/git/config-sources');
    const { repoConfigFrom } = await import('../../lib/store/memory-ref');
    const { recordingRunner } = await import('../git/support/recording-runner');
    const { dir, env } = makeRepo();
    git(dir, ['config', 'capsule.ref', 'refs/capsule-memory/x'], env);
    const runner = recordingRunner(createGitRunner({ cwd: dir, env: { ...env, CAPSULE_CONFIG_CACHE: '0' } }));
    expect(repoConfigFrom((await readCachedConfig(runner)).values)).toEqual({ capsuleRef: 'refs/capsule-memory/x', userName: 'Test User', userEmail: 'test@example.com' });
    expect(runner.calls.map((c) => c.args)).toEqual([[...CONFIG_LIST_ARGS]]);
    cleanup(dir);
  });
});
