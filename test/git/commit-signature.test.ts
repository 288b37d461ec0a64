import { execFileSync } from 'node:child_process';
import { lastSignatures } from '../../lib/git/commit-signature';
import { createGitRunner, type GitRunner } from '../../lib/git/git-runner';
import { cleanup, git, makeRepo } from '../store/support/temp-repo';

/** Commits on `ref` older than the newest one that changed the wanted paths: a long branch's history. */
const OLDER = 20_000;

/**
 * A branch whose oldest commit and newest commit change `a` and `b`, with OLDER commits that
 * change only `other` between them (fast-import writes them in one process).
 */
function longBranch(dir: string, env: NodeJS.ProcessEnv): { newest: string; oldest: string } {
  const commit = (i: number, files: string[]) =>
    `commit refs/heads/long\nmark :${i}\ncommitter t <t@example.invalid> ${1_700_000_000 + i} +0000\ndata 2\nc\n${files.map((f) => `M 100644 inline ${f}\ndata ${String(i).length + 1}\n${i}\n`).join('')}\n`;
  let stream = commit(1, ['a', 'b']);
  for (let i = 2; i <= OLDER + 1; i++) stream += commit(i, ['other']);
  stream += commit(OLDER + 2, ['a', 'b']);
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: dir, env, input: `${stream}done\n`, maxBuffer: 1 << 26 });
  return { newest: git(dir, ['rev-parse', 'refs/heads/long'], env), oldest: git(dir, ['rev-list', '--max-parents=0', 'refs/heads/long'], env) };
}

describe('lastSignatures on a long branch', () => {
  let repo: { dir: string; env: NodeJS.ProcessEnv };
  let commits: { newest: string; oldest: string };
  beforeAll(() => {
    repo = makeRepo();
    commits = longBranch(repo.dir, repo.env);
  }, 60_000);
  afterAll(() => cleanup(repo.dir));

  it('stops git once every path has its newest commit: the same answer, and the older history never walked to its end', async () => {
    const real = createGitRunner({ cwd: repo.dir, env: repo.env });
    const outputs: string[] = [];
    const watched: GitRunner = { cwd: real.cwd, env: real.env, run: async (args, opts) => {
      const out = await real.run(args, opts);
      outputs.push(out.stdout);
      return out;
    } };

    const checks = await lastSignatures(watched, 'refs/heads/long', ['a', 'b', 'never-changed']);

    expect(checks.get('a')).toEqual({ verified: false, status: 'N', signer: null, commit: commits.newest });
    expect(checks.get('b')).toEqual({ verified: false, status: 'N', signer: null, commit: commits.newest });
    expect(checks.get('never-changed')).toMatchObject({ commit: null, status: 'N' });
    // A path no commit changed keeps git walking to the root: only then is the oldest commit printed.
    expect(outputs.join('')).toContain(commits.oldest);

    outputs.length = 0;
    const found = await lastSignatures(watched, 'refs/heads/long', ['a', 'b']);
    expect([found.get('a')?.commit, found.get('b')?.commit]).toEqual([commits.newest, commits.newest]);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toContain(commits.newest);
    expect(outputs[0]).not.toContain(commits.oldest);
  }, 60_000);
});
