import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editTreeBytes, findTreeEntry, viewTree, type TreeChange } from '../../lib/git/tree-bytes';
import { dice } from '../support/seeded-random';

/** A scratch repository where `git mktree` says what git's own tree for a set of entries is. */
function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-tree-bytes-'));
  execFileSync('git', ['init', '-q', dir]);
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: dir, input, encoding: 'utf8' }).trim();
  const blob = git(['hash-object', '-w', '--stdin'], 'x');
  const folder = git(['mktree'], `100644 blob ${blob}\tinside\n`);
  /** git's tree bytes for entries name → mode. */
  const treeOf = (entries: Map<string, string>): Buffer => {
    const oid = git(['mktree'], [...entries].map(([name, mode]) => `${mode} ${mode === '40000' ? 'tree' : 'blob'} ${mode === '40000' ? folder : blob}\t${name}\n`).join(''));
    return execFileSync('git', ['cat-file', 'tree', oid], { cwd: dir });
  };
  return { blob, folder, treeOf, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('editTreeBytes', () => {
  let s: ReturnType<typeof scratch>;
  beforeAll(() => (s = scratch()));
  afterAll(() => s.cleanup());
  const change = (mode: string): TreeChange => ({ mode, oid: mode === '40000' ? s.folder : s.blob });

  // Names whose order depends on git's rule that a folder sorts as if its name ended in "/".
  const names = ['a', 'a.b', 'a-b', 'a0', 'ab', 'b', 'index', 'index.json', 'index-x', '01JDQ6Z8W1N9V3C5Q7R2000001', '01JDQ6Z8W1N9V3C5Q7R2000002', 'zz', 'é', 'ü.txt'];

  it('gives the tree git writes for the same entries, over many random edits', () => {
    const d = dice(7);
    const roll = (n: number) => d.int(n);
    for (let round = 0; round < 40; round += 1) {
      const before = new Map<string, string>();
      for (const n of names) if (roll(3) > 0) before.set(n, roll(2) ? '40000' : '100644');
      const changes = new Map<string, TreeChange | null>();
      for (const n of names) {
        const r = roll(6);
        if (r === 0) changes.set(n, null);
        else if (r === 1) changes.set(n, change('100644'));
        else if (r === 2) changes.set(n, change('40000'));
      }
      const after = new Map(before);
      for (const [n, c] of changes) c === null ? after.delete(n) : after.set(n, c.mode);
      const old = before.size === 0 ? null : s.treeOf(before);
      const expected = after.size === 0 ? Buffer.alloc(0) : s.treeOf(after);
      expect(editTreeBytes(old === null ? null : viewTree(old), changes).toString('hex')).toBe(expected.toString('hex'));
    }
  });

  it('finds, replaces, adds and removes entries of a month-sized tree as git orders them', () => {
    const d = dice(11);
    const ids = Array.from({ length: 600 }, (_, i) => `01M8${String(i * 7919 % 100000).padStart(6, '0')}${d.pick(['A', 'B', '-', '.', '_'])}${i}`);
    const before = new Map(ids.map((id) => [id, d.chance(0.8) ? '40000' : '100644']));
    const tree = viewTree(s.treeOf(before));
    for (const id of [ids[0]!, ids[299]!, ids[599]!]) expect(findTreeEntry(tree, id)?.mode).toBe(before.get(id));
    expect(findTreeEntry(tree, `${ids[5]!}x`)).toBeNull();
    const changes = new Map<string, TreeChange | null>([[ids[10]!, null], [ids[20]!, change('100644')], ['01M8NEW', change('40000')], ['01M8000000A', change('40000')]]);
    const after = new Map(before);
    for (const [n, c] of changes) c === null ? after.delete(n) : after.set(n, c.mode);
    expect(editTreeBytes(tree, changes).toString('hex')).toBe(s.treeOf(after).toString('hex'));
  });

  it('finds an entry by name and nothing for a name that is only a prefix', () => {
    const tree = viewTree(s.treeOf(new Map([['index', '40000'], ['index.json', '100644']])));
    expect(findTreeEntry(tree, 'index')).toEqual({ mode: '40000', oid: s.folder });
    expect(findTreeEntry(tree, 'index.json')).toEqual({ mode: '100644', oid: s.blob });
    expect(findTreeEntry(tree, 'inde')).toBeNull();
  });
});
