import { join } from 'node:path';
import { runCli } from '../../support/run-cli';
import { capsuleText, makeTrio, refOf, REMOTE_REF, removeTrio, writeCapsules, type Trio } from '../../sync/sync-trio';

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
