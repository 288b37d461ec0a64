import { join } from 'node:path';
import { runCli } from '../../support/run-cli';
import { capsuleText, git, makeTrio, refOf, removeTrio, sync, testId, writeCapsules, type Trio } from '../../sync/sync-trio';

let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

describe('git capsule sync', () => {
  it('prints the report as JSON and exits 0', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    const r = await runCli(['sync', '--json'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ remote: 'origin', ref: 'refs/heads/capsules', action: 'push', pushed: true, outgoing: { capsules: 1 } });
    expect(refOf(trio.remote, trio.env)).toBe(refOf(trio.a, trio.env));
  });

  it('says what would move on --dry-run and moves nothing', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    const r = await runCli(['sync', '--dry-run'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^would push refs\/heads\/capsules to origin: 1 capsule/);
    expect(refOf(trio.remote, trio.env)).toBeNull();
  });

  it('exits 1 with REMOTE_UNREACHABLE for a remote that cannot be reached', async () => {
    const r = await runCli(['sync', join(trio.root, 'nowhere.git')], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[REMOTE_UNREACHABLE]');
  });

  it('says what went wrong in git\'s own first words, not its closing advice', async () => {
    const r = await runCli(['sync', join(trio.root, 'nowhere.git')], { cwd: trio.a, env: trio.env });
    expect(r.stderr).toContain('does not appear to be a git repository; check the name');
    expect(r.stderr).not.toContain('and the repository exists');
  });

  it('exits 1 with NO_REMOTE and a sentence saying what to do when the repository has no remote', async () => {
    git(trio.a, ['remote', 'remove', 'origin'], trio.env);
    const r = await runCli(['sync'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^git capsule sync: \[NO_REMOTE\] this repository has no remote .*git remote add origin <url>/);
  });

  it('names the remotes there are when none is origin and no upstream picks one', async () => {
    git(trio.a, ['remote', 'rename', 'origin', 'team'], trio.env);
    git(trio.a, ['branch', '--unset-upstream'], trio.env);
    const r = await runCli(['sync'], { cwd: trio.a, env: trio.env });
    expect(r.stderr).toContain('[NO_REMOTE] no remote named origin');
    expect(r.stderr).toContain('git capsule sync team');
  });

  it('exits 2 on more than one remote', async () => {
    const r = await runCli(['sync', 'origin', 'other'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(2);
  });

  it('says what it refused from the remote, one line per kind', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1), capsuleText(2)]);
    await sync(trio.a, trio.env);
    await sync(trio.b, trio.env);
    // The collaborator deletes capsule 2 with plain git and pushes.
    const tip = refOf(trio.b, trio.env)!;
    const without = git(trio.b, ['mktree'], trio.env, git(trio.b, ['ls-tree', `${tip}:capsules/2026/11`], trio.env).split('\n').filter((l) => !l.endsWith(testId(2))).join('\n') + '\n');
    const month = git(trio.b, ['mktree'], trio.env, `040000 tree ${without}\t11\n`);
    const year = git(trio.b, ['mktree'], trio.env, `040000 tree ${month}\t2026\n`);
    const root = git(trio.b, ['mktree'], trio.env, git(trio.b, ['ls-tree', tip], trio.env).replace(/^(040000 tree )[0-9a-f]+(\tcapsules)$/m, `$1${year}$2`) + '\n');
    git(trio.b, ['push', '-q', 'origin', `${git(trio.b, ['commit-tree', root, '-p', tip, '-m', 'rm'], trio.env)}:refs/heads/capsules`], trio.env);

    const r = await runCli(['sync'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`refused from origin: 1 capsule files the remote deleted (kept): "capsules/2026/11/${testId(2)}/capsule.md"`);
  });

  it('prints nothing with --quiet', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    const r = await runCli(['sync', '--quiet'], { cwd: trio.a, env: trio.env });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });
});
