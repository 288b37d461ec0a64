import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { createGitRunner } from '../../lib/git/git-runner';
import { buildMergeStream, committerTime, laterCommitTime, MERGE_MESSAGE, type MergeParent } from '../../lib/sync/merge-commit';
import type { MergedTree } from '../../lib/sync/merge-trees';

const f = (oid: string) => ({ mode: '100644', oid });
const low: MergeParent = { commit: '1'.repeat(40), listing: new Map([['FORMAT', f('f')], ['capsules/a/capsule.md', f('a')], ['index/counts.json', f('c1')]]), index: new Map([['index/counts.json', 'one\n'], ['index/active/2026/11', 'x\n']]) };
const high: MergeParent = { commit: '9'.repeat(40), listing: new Map([['FORMAT', f('f')], ['capsules/b/capsule.md', f('b')]]), index: new Map() };
const merged: MergedTree = {
  files: new Map([['FORMAT', f('f')], ['capsules/a/capsule.md', f('a')], ['capsules/b/capsule.md', f('b')]]),
  index: new Map([['index/counts.json', 'two\n']]),
  resolutions: [],
  summarized: 0,
  sideIndexes: [new Map(), new Map()],
  unsafe: [],
};

describe('buildMergeStream', () => {
  it('is the same stream whichever parent is local, with parents in id order', () => {
    const a = buildMergeStream({ ref: 'refs/heads/capsules', epochSeconds: 1767225600, merged, parents: [low, high] });
    const b = buildMergeStream({ ref: 'refs/heads/capsules', epochSeconds: 1767225600, merged, parents: [high, low] });
    expect(a).toBe(b);
    expect(a).toContain(`from ${low.commit}\nmerge ${high.commit}\n`);
    expect(a).toContain(`git-capsule <git-capsule@localhost> 1767225600 +0000`);
    expect(a).toContain(MERGE_MESSAGE);
  });

  it("writes only what differs from the first parent's tree and drops, first, the files the merge no longer has", () => {
    const stream = buildMergeStream({ ref: 'refs/heads/capsules', epochSeconds: 1, merged, parents: [low, high] });
    const ops = stream.split('\n').filter((l) => /^(M|D) /.test(l));
    expect(ops).toEqual(['D index/active/2026/11', 'M 100644 b capsules/b/capsule.md', 'M 100644 inline index/counts.json']);
  });

  it('deletes a file of the first parent that moved, before writing where it went', () => {
    const moved: MergedTree = { ...merged, files: new Map([['FORMAT', f('f')], ['capsules/2026/11/29/a/capsule.md', f('a')], ['capsules/b/capsule.md', f('b')]]) };
    const ops = buildMergeStream({ ref: 'refs/heads/capsules', epochSeconds: 1, merged: moved, parents: [low, high] }).split('\n').filter((l) => /^(M|D) /.test(l));
    expect(ops.slice(0, 3)).toEqual(['D capsules/a/capsule.md', 'D index/active/2026/11', 'M 100644 a capsules/2026/11/29/a/capsule.md']);
  });
});

describe('laterCommitTime', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'capsule-later-'));
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'c', GIT_COMMITTER_EMAIL: 'c@example.com' };
    execFileSync('git', ['init', '-q', dir], { env });
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'one'], { cwd: dir, env: { ...env, GIT_COMMITTER_DATE: '1767225600 +0000' } });
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'two'], { cwd: dir, env: { ...env, GIT_COMMITTER_DATE: '1767229200 +0230' } });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the committer times from the commit objects through the open reader, as git log's %ct gives them", async () => {
    const runner = createGitRunner({ cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });
    const [second, first] = execFileSync('git', ['rev-list', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim().split('\n') as [string, string];
    const reader = new CatFileBatch(runner);
    try {
      expect(committerTime(await reader.read(first))).toBe(1767225600);
      expect(committerTime(await reader.read(second))).toBe(1767229200);
      expect(await laterCommitTime(runner, [first, second], reader)).toBe(1767229200);
      expect(await laterCommitTime(runner, [first, second])).toBe(1767229200);
      expect(committerTime(await reader.read(`${first}^{tree}`))).toBeNull();
    } finally {
      await reader.close();
    }
  });
});
