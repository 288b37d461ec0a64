import { execFileSync } from 'node:child_process';
import { capsuleDir, FORMAT_TEXT } from '../../lib/store/memory-format';
import { loadLegacyMemory, memoryContent } from '../support/legacy-memory';
import { fsck, git, makeTrio, refOf, REMOTE_REF, removeTrio, statuses, sync, type Trio } from './sync-trio';

// A remote where an older git-capsule pushed refs/heads/capsules (layout 1, a commit per turn),
// and two clones holding their own unsynced layout-1 writes, all made by that older version
// (test/fixtures/memory-v1). The new version syncs from both clones.

const LEGACY = 'refs/heads/capsules';
jest.setTimeout(180_000);
let trio: Trio;
let legacyTip: string;
beforeEach(() => {
  trio = makeTrio();
  legacyTip = loadLegacyMemory(trio.remote, trio.env, 'capsules', LEGACY);
  loadLegacyMemory(trio.a, trio.env, 'capsules-a');
  loadLegacyMemory(trio.b, trio.env, 'capsules-b');
  // The fixture's finished capsules are from October 2026: retention (its own tests) must not
  // retire them here, whatever today's date is, or "loses nothing" would depend on the calendar.
  for (const dir of [trio.a, trio.b]) git(dir, ['config', 'capsule.retireAfterDays', 'never'], trio.env);
});
afterEach(() => removeTrio(trio));

/** Everything the three old branches hold, layout aside: id → document blob and status events. */
function everything(): Map<string, { doc: string | null; events: string[] }> {
  const all = new Map<string, { doc: string | null; events: string[] }>();
  for (const [dir, ref] of [[trio.remote, LEGACY], [trio.a, LEGACY], [trio.b, LEGACY]] as const) {
    for (const [id, c] of memoryContent(dir, trio.env, ref)) {
      const seen = all.get(id);
      all.set(id, { doc: c.doc, events: [...new Set([...(seen?.events ?? []), ...c.events])].sort() });
    }
  }
  return all;
}

describe('syncing with a remote that holds the branch an older git-capsule pushed', () => {
  it('loses nothing, and leaves every clone and the remote in layout 3 under refs/capsules/', async () => {
    const expected = everything();
    for (const dir of [trio.a, trio.b, trio.a]) await sync(dir, trio.env);
    const tip = refOf(trio.remote, trio.env, REMOTE_REF)!;
    expect([refOf(trio.a, trio.env), refOf(trio.b, trio.env)]).toEqual([tip, tip]);
    for (const [dir, ref] of [[trio.a, LEGACY], [trio.b, LEGACY], [trio.remote, REMOTE_REF]] as const) {
      expect(Object.fromEntries(memoryContent(dir, trio.env, ref))).toEqual(Object.fromEntries(expected));
      expect(git(dir, ['show', `${ref}:FORMAT`], trio.env)).toBe(FORMAT_TEXT.trim());
      const folders = new Set(git(dir, ['ls-tree', '-r', '--name-only', ref, '--', 'capsules'], trio.env).split('\n').map((p) => p.replace(/\/(capsule\.md|status\/.*)$/, '')));
      expect([...folders].sort()).toEqual([...expected.keys()].map(capsuleDir).sort());
      expect(fsck(dir, trio.env).code).toBe(0);
    }
    for (const dir of [trio.a, trio.b]) expect(Object.keys(await statuses(dir, trio.env)).sort()).toEqual([...expected.keys()].sort());
  });

  it('publishes the state only: none of the old per-turn commits, and the old branch is never written', async () => {
    const a = await sync(trio.a, trio.env);
    expect(a).toMatchObject({ action: 'push', pushed: true, legacy: { ref: LEGACY, tip: legacyTip, absorbed: false } });
    const b = await sync(trio.b, trio.env);
    // Both clones' branches grew from the old branch: it is already in their history, nothing to merge.
    expect(b).toMatchObject({ action: 'merge', pushed: true, published: 1, legacy: { absorbed: false } });
    expect(refOf(trio.remote, trio.env, LEGACY)).toBe(legacyTip);
    const published = git(trio.remote, ['rev-list', REMOTE_REF], trio.env).split('\n');
    const legacyHistory = new Set(git(trio.remote, ['rev-list', LEGACY], trio.env).split('\n'));
    // The root every memory branch starts from is shared; nothing else of the old history is.
    expect(published.filter((c) => legacyHistory.has(c))).toHaveLength(1);
    // The root, a's publish commit, b's on top of it.
    expect(published).toHaveLength(1 + 2);
  });

  it('refuses, with SYNC_FORMAT_MISMATCH, to merge a remote whose FORMAT declares a newer layout, and changes nothing', async () => {
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    const tip = refOf(trio.remote, trio.env, REMOTE_REF)!;
    const stream = `commit ${REMOTE_REF}\ncommitter New <new@example.com> 1796100000 +0000\ndata 4\nnew\nfrom ${tip}\nM 100644 inline FORMAT\ndata ${Buffer.byteLength(FORMAT_TEXT.replace('format: 3', 'format: 4'))}\n${FORMAT_TEXT.replace('format: 3', 'format: 4')}\n\ndone\n`;
    execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: trio.remote, env: trio.env, input: stream });
    const { writeCapsules, capsuleText } = await import('./sync-trio');
    await writeCapsules(trio.b, trio.env, [capsuleText(7, { created_at: '2026-12-01T10:00:00Z' })]);
    const before = refOf(trio.b, trio.env);
    await expect(sync(trio.b, trio.env)).rejects.toMatchObject({ code: 'SYNC_FORMAT_MISMATCH', data: { side: 'remote', version: 4 } });
    expect(refOf(trio.b, trio.env)).toBe(before);
  });

  it('merges what an older version pushes to the old branch later, and says the old branch is still there', async () => {
    await sync(trio.a, trio.env);
    // An older git-capsule on another machine pushes one more capsule to refs/heads/capsules.
    const old = 'capsules/2026/12/01M9AAAAAAAAAAAAAAAAAAAAAA';
    const doc = '---\nid: 01M9AAAAAAAAAAAAAAAAAAAAAA\nobjective: "pushed by an old version"\nwaiting_on: "nothing"\nnext_valid_action: "go"\nstatus: active\ncreated_at: 2026-12-01T08:00:00Z\n---\n';
    const stream = `commit ${LEGACY}\ncommitter Old <old@example.com> 1796100000 +0000\ndata 4\nold\nfrom ${legacyTip}\nM 100644 inline ${old}/capsule.md\ndata ${Buffer.byteLength(doc)}\n${doc}\n\ndone\n`;
    execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: trio.remote, env: trio.env, input: stream });
    const report = await sync(trio.a, trio.env);
    expect(report).toMatchObject({ pushed: true, legacy: { absorbed: true } });
    expect(memoryContent(trio.remote, trio.env, REMOTE_REF).has('01M9AAAAAAAAAAAAAAAAAAAAAA')).toBe(true);
    expect(await sync(trio.a, trio.env)).toMatchObject({ action: 'up-to-date', legacy: { absorbed: false } });
  });
});
