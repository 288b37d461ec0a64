import { capsuleDir, FORMAT_TEXT, FORMAT_TEXT_V2, retiredPath } from '../../lib/store/memory-format';
import { memoryContent } from '../support/legacy-memory';
import { layout2Path, rewriteAsLayout2 } from '../support/layout2-memory';
import { capsuleText, fsck, git, makeTrio, refOf, REMOTE_REF, removeTrio, setStatus, statuses, sync, testId, writeCapsules, type Trio } from './sync-trio';

// A remote and two clones that the previous git-capsule (layout 2) wrote and synced, each ref
// rewritten into layout 2 with plain git (test/support/layout2-memory.ts). The new version then
// writes on one clone and syncs from both.

const LOCAL = 'refs/heads/capsules';
const OTHER_DAY = '01M8KJT9G00000000000000039';
const GONE = testId(9);
jest.setTimeout(180_000);
let trio: Trio;
beforeEach(async () => {
  trio = makeTrio();
  for (const dir of [trio.a, trio.b]) git(dir, ['config', 'capsule.retireAfterDays', 'never'], trio.env);
  await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2, { id: OTHER_DAY })]);
  await setStatus(trio.a, trio.env, testId(1), 'paused', 'a');
  await sync(trio.a, trio.env);
  await sync(trio.b, trio.env);
  await writeCapsules(trio.b, trio.env, [capsuleText(3)]);
  await sync(trio.b, trio.env);
  // b's tombstone of GONE (as retirement leaves one) reaches the remote; a never sees it before the upgrade.
  const tip = refOf(trio.b, trio.env)!;
  const stone = 'retired: 2026-11-30\n';
  git(trio.b, ['fast-import', '--quiet', '--done'], trio.env, `commit ${LOCAL}\ncommitter B <b@example.com> 1796100000 +0000\ndata 7\nretire\nfrom ${tip}\nM 100644 inline ${retiredPath(GONE)}\ndata ${stone.length}\n${stone}\ndone\n`);
  await sync(trio.b, trio.env);
  // Every memory ref of the three repositories, as the previous version would have left it.
  for (const dir of [trio.remote, trio.a, trio.b]) {
    for (const ref of git(dir, ['for-each-ref', '--format=%(refname)', LOCAL, REMOTE_REF, 'refs/capsule-remotes/'], trio.env).split('\n').filter(Boolean)) rewriteAsLayout2(dir, trio.env, ref);
  }
});
afterEach(() => removeTrio(trio));

/** Everything the three branches hold, layout aside: id → document blob and status events. */
function everything(): Map<string, { doc: string | null; events: string[] }> {
  const all = new Map<string, { doc: string | null; events: string[] }>();
  for (const [dir, ref] of [[trio.remote, REMOTE_REF], [trio.a, LOCAL], [trio.b, LOCAL]] as const) {
    for (const [id, c] of memoryContent(dir, trio.env, ref)) {
      const seen = all.get(id);
      all.set(id, { doc: c.doc, events: [...new Set([...(seen?.events ?? []), ...c.events])].sort() });
    }
  }
  return all;
}

describe('syncing with a remote that the previous version (layout 2) wrote', () => {
  it('starts from refs in layout 2 (the fixture this suite migrates)', () => {
    for (const [dir, ref] of [[trio.remote, REMOTE_REF], [trio.a, LOCAL], [trio.b, LOCAL]] as const) {
      expect(git(dir, ['show', `${ref}:FORMAT`], trio.env)).toBe(FORMAT_TEXT_V2.trim());
      expect(git(dir, ['ls-tree', '-r', '--name-only', ref, '--', 'capsules'], trio.env)).toMatch(/^capsules\/\d{4}\/\d\d\/\d\d\//m);
    }
    for (const [dir, ref] of [[trio.remote, REMOTE_REF], [trio.b, LOCAL]] as const) expect(git(dir, ['ls-tree', '-r', '--name-only', ref, '--', 'retired'], trio.env)).toBe(layout2Path(retiredPath(GONE)));
  });

  it('loses nothing from two clones of the new version, and leaves both clones and the remote in layout 3', async () => {
    // a writes GONE again, not knowing it was retired: the tombstone in layout 2's place must still win the merge.
    await writeCapsules(trio.a, trio.env, [capsuleText(4), capsuleText(9)]);
    await setStatus(trio.b, trio.env, OTHER_DAY, 'resolved', 'b');
    const expected = everything();
    expected.delete(GONE);
    expect([...expected.keys()].sort()).toEqual([testId(1), testId(3), testId(4), OTHER_DAY].sort());
    for (const dir of [trio.a, trio.b, trio.a]) await sync(dir, trio.env);
    const tip = refOf(trio.remote, trio.env, REMOTE_REF)!;
    expect([refOf(trio.a, trio.env), refOf(trio.b, trio.env)]).toEqual([tip, tip]);
    for (const [dir, ref] of [[trio.a, LOCAL], [trio.b, LOCAL], [trio.remote, REMOTE_REF]] as const) {
      expect(Object.fromEntries(memoryContent(dir, trio.env, ref))).toEqual(Object.fromEntries(expected));
      expect(git(dir, ['show', `${ref}:FORMAT`], trio.env)).toBe(FORMAT_TEXT.trim());
      const folders = new Set(git(dir, ['ls-tree', '-r', '--name-only', ref, '--', 'capsules'], trio.env).split('\n').map((p) => p.replace(/\/(capsule\.md|status\/.*)$/, '')));
      expect([...folders].sort()).toEqual([...expected.keys()].map(capsuleDir).sort());
      expect(git(dir, ['ls-tree', '-r', '--name-only', ref, '--', 'index'], trio.env)).not.toMatch(/^index\/[a-z]+\/\d{4}\//m);
      expect(git(dir, ['ls-tree', '-r', '--name-only', ref, '--', 'retired'], trio.env)).toBe(retiredPath(GONE));
      expect(fsck(dir, trio.env).code).toBe(0);
    }
    for (const dir of [trio.a, trio.b]) expect(await statuses(dir, trio.env)).toEqual({ [testId(1)]: 'paused', [testId(3)]: 'active', [testId(4)]: 'active', [OTHER_DAY]: 'resolved' });
  });

  it('moves a clone that wrote nothing since to layout 3 on its sync, and takes the remote in layout 3 too', async () => {
    await sync(trio.b, trio.env);
    for (const [dir, ref] of [[trio.b, LOCAL], [trio.remote, REMOTE_REF]] as const) expect(git(dir, ['show', `${ref}:FORMAT`], trio.env)).toBe(FORMAT_TEXT.trim());
    await sync(trio.a, trio.env);
    expect(refOf(trio.a, trio.env)).toBe(refOf(trio.remote, trio.env, REMOTE_REF));
    expect(await statuses(trio.a, trio.env)).toEqual({ [testId(1)]: 'paused', [testId(3)]: 'active', [OTHER_DAY]: 'active' });
  });
});
