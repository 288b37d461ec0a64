import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newCapsuleId } from '../../lib/capsule/id';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { FORMAT_TEXT_V2 } from '../../lib/store/memory-format';
import { encodeCounts } from '../../lib/store/selection-index';
import { mergeTrees, OutOfScope } from '../../lib/sync/merge-trees';
import { renderCapsule } from '../../lib/capsule/render';
import { emptySections } from '../../lib/capsule/sections';
import { createGitRunner } from '../../lib/git/git-runner';
import { openStore } from '../../lib/store/open-store';
import { listBoth, listForMerge, mergeIntoRef, type Listings } from '../../lib/sync/local-moves';
import { dayFolderOf } from '../../lib/sync/merge-scope';
import { git, makeTrio, refOf, removeTrio, sync, type Trio } from './sync-trio';

// A merge reads only the day folders that differ between the two tips (lib/sync/merge-scope.ts),
// and must write exactly the tree a merge of the whole trees writes: same files, same index
// shards, same counts. Real clones of a bare remote; each merge is written on a ref of its own.

const DAY = 86_400_000;
const BASE = Date.parse('2026-11-01T09:00:00Z');

/** A capsule whose id is made at `idAt` and whose created_at is `createdAt` (the index files it under that day). */
function capsule(idAt: number, n: number, objective: string, createdAt = idAt, next = 'go on'): { id: string; text: string } {
  const id = newCapsuleId(new Date(idAt), (k) => Buffer.from(`scope${n}`.padEnd(k, 'x').slice(0, k)));
  const text = renderCapsule({
    frontmatter: { id, objective, waiting_on: 'nothing', next_valid_action: next, status: 'active', trigger: 'manual', created_at: new Date(createdAt).toISOString() },
    sections: emptySections(),
    notes: '',
  });
  return { id, text };
}

async function write(dir: string, env: NodeJS.ProcessEnv, docs: Array<{ text: string }>, at: number): Promise<void> {
  const store = await openStore({ cwd: dir, env });
  try {
    for (const d of docs) await store.writeCapsule(d.text, { now: new Date(at), replace: true });
  } finally {
    await store.close();
  }
}

async function resolve(dir: string, env: NodeJS.ProcessEnv, id: string, at: number): Promise<void> {
  const store = await openStore({ cwd: dir, env });
  try {
    await store.setStatus(id, 'resolved', { writer: 'b', now: new Date(at) });
  } finally {
    await store.close();
  }
}

/** The merge of b's tip with the tracking ref, written on `ref`, from the listings `list` gives; its tree. */
async function mergeWith(trio: Trio, ref: string, list: 'scoped' | 'whole'): Promise<{ tree: string; listings: Listings }> {
  const runner = createGitRunner({ cwd: trio.b, env: trio.env });
  const local = refOf(trio.b, trio.env)!;
  const remote = refOf(trio.b, trio.env, 'refs/capsule-remotes/origin/capsules/capsules')!;
  const store = await openStore({ cwd: trio.b, env: trio.env });
  try {
    const listings = list === 'scoped' ? await listForMerge(runner, local, remote) : await listBoth(runner, local, remote);
    const moved = await mergeIntoRef(runner, store.objectReader(), { ref, local, remote, listings });
    if (!moved.ok) throw new Error(moved.reason);
    return { tree: git(trio.b, ['rev-parse', `${moved.after}^{tree}`], trio.env), listings };
  } finally {
    await store.close();
  }
}

/** b fetches the remote without merging (a dry run moves no ref; this moves only the tracking ref). */
function fetchRemote(trio: Trio): void {
  git(trio.b, ['fetch', '-q', 'origin', '+refs/capsules/capsules:refs/capsule-remotes/origin/capsules/capsules'], trio.env);
}

describe('a merge scoped to the day folders that differ', () => {
  let trio: Trio;
  beforeEach(async () => {
    trio = makeTrio();
    // Five days of capsules, published by a and taken by b.
    await write(trio.a, trio.env, [0, 1, 2, 3, 4].map((d) => capsule(BASE + d * DAY, d, `day ${d}`)), BASE + 5 * DAY);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
  });
  afterEach(() => removeTrio(trio));

  it('reads only the days either side changed and writes the same tree as a merge of the whole trees, counts included', async () => {
    await write(trio.a, trio.env, [capsule(BASE + 4 * DAY, 4, 'day 4, later'), capsule(BASE + 6 * DAY, 16, 'a on day 6')], BASE + 6 * DAY);
    await sync(trio.a, trio.env);
    await write(trio.b, trio.env, [capsule(BASE + 6 * DAY + 1000, 26, 'b on day 6')], BASE + 6 * DAY);
    await resolve(trio.b, trio.env, capsule(BASE + DAY, 1, '').id, BASE + 6 * DAY);
    fetchRemote(trio);

    const scoped = await mergeWith(trio, 'refs/test/scoped', 'scoped');
    const whole = await mergeWith(trio, 'refs/test/whole', 'whole');
    expect([...(scoped.listings.scope?.days ?? [])].sort()).toEqual(['2026-11-02', '2026-11-05', '2026-11-07']);
    for (const path of [...scoped.listings.ours.keys(), ...scoped.listings.theirs.keys()]) {
      if (path !== 'FORMAT' && path !== 'index/counts.json') expect(scoped.listings.scope!.days.has(dayFolderOf(path)!)).toBe(true);
    }
    expect(scoped.tree).toBe(whole.tree);
    const counts = JSON.parse(git(trio.b, ['show', 'refs/test/scoped:index/counts.json'], trio.env)) as { counts: Record<string, number> };
    expect(counts.counts).toMatchObject({ active: 6, resolved: 1 });
  });

  it('reads the whole trees when a file outside the day folders differs, so the union keeps it', async () => {
    // b's branch gains a file the layout does not know, committed by hand on top of its tip.
    const tip = refOf(trio.b, trio.env)!;
    git(trio.b, ['fast-import', '--quiet', '--done'], trio.env, `commit refs/heads/capsules\ncommitter B <b@example.com> ${Math.floor(BASE / 1000) + 6 * 86400} +0000\ndata 5\nnote\nfrom ${tip}\nM 100644 inline notes.txt\ndata 3\nhi\n\ndone\n`);
    await write(trio.a, trio.env, [capsule(BASE + 6 * DAY, 56, 'a on day 6')], BASE + 6 * DAY);
    await sync(trio.a, trio.env);
    fetchRemote(trio);

    const scoped = await mergeWith(trio, 'refs/test/scoped', 'scoped');
    const whole = await mergeWith(trio, 'refs/test/whole', 'whole');
    expect(scoped.listings.scope).toBeUndefined();
    expect(scoped.tree).toBe(whole.tree);
    expect(git(trio.b, ['show', 'refs/test/scoped:notes.txt'], trio.env)).toBe('hi');
  });

  it('reads the whole trees when a changed capsule is indexed under a day outside the scope (created_at and id name different days)', async () => {
    // Day 2's capsule, created_at day 3: its index line sits in day 3's shard, beside day 3's own capsule.
    const split = capsule(BASE + 2 * DAY + 5000, 32, 'split', BASE + 3 * DAY);
    await write(trio.a, trio.env, [split], BASE + 5 * DAY);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    // a changes only its next action (the index line stays as it was); b writes on day 6.
    await write(trio.a, trio.env, [capsule(BASE + 2 * DAY + 5000, 32, 'split', BASE + 3 * DAY, 'another step')], BASE + 6 * DAY);
    await sync(trio.a, trio.env);
    await write(trio.b, trio.env, [capsule(BASE + 6 * DAY, 36, 'b on day 6')], BASE + 6 * DAY);
    fetchRemote(trio);

    const scoped = await mergeWith(trio, 'refs/test/scoped', 'scoped');
    const whole = await mergeWith(trio, 'refs/test/whole', 'whole');
    expect(scoped.tree).toBe(whole.tree);
    const shard = git(trio.b, ['show', `refs/test/scoped:index/active/2026-11-04/${authorKeyOf(trio)}`], trio.env);
    expect(shard).toContain(split.id);
    expect(shard).toContain(capsule(BASE + 3 * DAY, 3, '').id);
  });

  it("reads the whole trees when a changed day's index holds a line for a capsule of another day", async () => {
    // Day 1's capsule, created_at day 3, unchanged on both sides; a adds a capsule on day 3 (same author shard).
    const split = capsule(BASE + DAY + 5000, 41, 'kept', BASE + 3 * DAY);
    await write(trio.a, trio.env, [split], BASE + 5 * DAY);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    await write(trio.a, trio.env, [capsule(BASE + 3 * DAY + 7000, 43, 'a on day 3')], BASE + 6 * DAY);
    await sync(trio.a, trio.env);
    await write(trio.b, trio.env, [capsule(BASE + 6 * DAY, 46, 'b on day 6')], BASE + 6 * DAY);
    fetchRemote(trio);

    const scoped = await mergeWith(trio, 'refs/test/scoped', 'scoped');
    const whole = await mergeWith(trio, 'refs/test/whole', 'whole');
    expect(scoped.tree).toBe(whole.tree);
    expect(git(trio.b, ['show', `refs/test/scoped:index/active/2026-11-04/${authorKeyOf(trio)}`], trio.env)).toContain(split.id);
  });
});

/** The author key a's capsules are indexed under (its only shard of day 1). */
function authorKeyOf(trio: Trio): string {
  return git(trio.a, ['ls-tree', '--name-only', 'refs/heads/capsules:index/active/2026-11-01'], trio.env).split('\n')[0]!;
}

describe('a scoped merge of two trees in an older layout', () => {
  it('is refused (OutOfScope), so the caller merges the whole trees and moves every folder at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capsule-scope-v2-'));
    const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1' };
    try {
      git(tmpdir(), ['init', '-q', dir], env);
      const blob = (text: string) => git(dir, ['hash-object', '-w', '--stdin'], env, text);
      const doc = capsule(BASE, 51, 'in layout 2');
      const [y, m, d] = ['2026', '11', '01'];
      const listing = new Map([
        ['FORMAT', { mode: '100644', oid: blob(FORMAT_TEXT_V2) }],
        [`capsules/${y}/${m}/${d}/${doc.id}/capsule.md`, { mode: '100644', oid: blob(doc.text) }],
        ['index/counts.json', { mode: '100644', oid: blob(encodeCounts({ active: 1, paused: 0, resumed: 0, abandoned: 0, resolved: 0 })) }],
      ]);
      const reader = new CatFileBatch(createGitRunner({ cwd: dir, env }));
      try {
        await expect(mergeTrees(reader, listing, listing, { scope: { days: new Set(['2026-11-01', y]) } })).rejects.toBeInstanceOf(OutOfScope);
        expect((await mergeTrees(reader, listing, listing)).files.has(`capsules/2026-11-01/${doc.id}/capsule.md`)).toBe(true);
      } finally {
        await reader.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
