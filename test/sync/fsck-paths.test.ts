import { isFsckSafePath, withoutUnsafePaths } from '../../lib/sync/fsck-paths';

describe('isFsckSafePath', () => {
  it.each(['capsules/2026-11-29/01JDQ7/capsule.md', 'index/active/2026-11-29', 'retired/2026-11-29/01JDQ7', 'capsules/2026/11/29/01JDQ7/capsule.md', 'index/active/2026/11/29', 'FORMAT', '.gitignore', 'a/.github/b', 'git~2', 'a..b/c', '..\\x'])('accepts %j', (path) => {
    expect(isFsckSafePath(path)).toBe(true);
  });

  it.each(['..', 'capsules/..', 'capsules/../x', '.', 'a/./b', '', 'a//b', 'a/', '.git', 'a/.git/config', '.GIT', 'a/.Git', '.git.', '.git ', '.git. .', 'GIT~1', 'a/git~1/b', '.g\u200cit', '\ufeff.git/x', '.git::$INDEX_ALLOCATION', 'a\\.git'])('refuses %j, as git fsck does', (path) => {
    expect(isFsckSafePath(path)).toBe(false);
  });
});

describe('withoutUnsafePaths', () => {
  it('splits a listing into the paths fsck accepts and, sorted, those it refuses', () => {
    const file = { mode: '100644', oid: 'a'.repeat(40) };
    const { safe, unsafe } = withoutUnsafePaths(new Map([['FORMAT', file], ['capsules/..', file], ['.git/x', file]]));
    expect([...safe.keys()]).toEqual(['FORMAT']);
    expect(unsafe).toEqual(['.git/x', 'capsules/..']);
  });
});
