import { isFsckSafePath, leftOutOf, MAX_LAYOUT_DEPTH, withoutUnsafePaths } from '../../lib/sync/fsck-paths';
import { nameStatusOfRaw, unsafeInDiff } from '../../lib/sync/outgoing-check';

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
    expect(unsafe).toEqual([{ path: '.git/x', kind: 'unsafe-path' }, { path: 'capsules/..', kind: 'unsafe-path' }]);
  });

  it('leaves out a too-deep folder once, whatever number of files it holds', () => {
    const file = { mode: '100644', oid: 'a'.repeat(40) };
    const deep = Array(MAX_LAYOUT_DEPTH + 5).fill('d').join('/');
    const { unsafe } = withoutUnsafePaths(new Map([[`${deep}/x`, file], [`${deep}/y`, file]]));
    expect(unsafe).toEqual([{ path: Array(MAX_LAYOUT_DEPTH).fill('d').join('/'), kind: 'too-deep' }]);
  });
});

describe('leftOutOf', () => {
  const deep = Array(MAX_LAYOUT_DEPTH + 1).fill('d').join('/');
  it.each([
    ['capsules/2026/11/01JDQ7/capsule.md', '100644', null],
    ['capsules/2026/11/01JDQ7/status/x', '100644', null],
    [Array(MAX_LAYOUT_DEPTH).fill('d').join('/'), '100644', null],
    ['link', '120000', 'symlink'],
    ['vendor', '160000', 'gitlink'],
    [deep, '100644', 'too-deep'],
    ['capsules/..', '120000', 'unsafe-path'],
  ])('%j (mode %s): %j', (path, mode, kind) => {
    expect(leftOutOf(path, mode)?.kind ?? null).toBe(kind);
  });
});

describe('unsafeInDiff', () => {
  const raw = (mode: string, status: string, path: string) => `:000000 ${mode} ${'0'.repeat(40)} ${'a'.repeat(40)} ${status}\0${path}\0`;
  it('reads the new mode of each added or changed entry, and skips deletions', () => {
    const diff = raw('120000', 'A', 'link') + raw('160000', 'M', 'vendor') + raw('100644', 'A', 'capsules/x') + raw('120000', 'D', 'gone');
    expect(unsafeInDiff(diff)).toEqual([{ path: 'link', kind: 'symlink' }, { path: 'vendor', kind: 'gitlink' }]);
    expect(nameStatusOfRaw(diff)).toBe('A\0link\0M\0vendor\0A\0capsules/x\0D\0gone\0');
  });
});
