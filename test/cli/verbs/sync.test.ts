import { join } from 'node:path';
import { runCli } from '../../support/run-cli';
import { capsuleText, git, makeTrio, refOf, REMOTE_REF, removeTrio, writeCapsules, type Trio } from '../../sync/sync-trio';

// Each test spawns the CLI, which spawns git a dozen times: on a loaded 2-core machine one sync took 30 s.
jest.setTimeout(120_000);

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
    expect(JSON.parse(r.stdout)).toMatchObject({ remote: 'origin', ref: 'refs/heads/capsules', remoteRef: REMOTE_REF, action: 'push', pushed: true, published: 1, outgoing: { capsules: 1 } });
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBe(refOf(trio.a, trio.env));
  });

  it('says what would move on --dry-run and moves nothing', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    const r = await runCli(['sync', '--dry-run'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^would push refs\/heads\/capsules to origin as refs\/capsules\/capsules: 1 capsule/);
    expect(refOf(trio.remote, trio.env, REMOTE_REF)).toBeNull();
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

  it('prints nothing with --quiet', async () => {
    await writeCapsules(trio.a, trio.env, [capsuleText(1)]);
    const r = await runCli(['sync', '--quiet'], { cwd: trio.a, env: trio.env });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
  });
});
