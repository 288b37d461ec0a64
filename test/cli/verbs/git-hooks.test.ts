import { runCli } from '../../support/run-cli';
import { makeTrio, removeTrio, type Trio } from '../../store/sync-trio';

let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

describe('git capsule git-hooks', () => {
  it('installs, reports and uninstalls as JSON', async () => {
    const installed = await runCli(['git-hooks', 'install', '--json'], { cwd: trio.a, env: trio.env });
    expect(installed.code).toBe(0);
    expect(JSON.parse(installed.stdout)).toMatchObject({ autoSync: true, hooks: [{ event: 'pre-push', state: 'installed' }, { event: 'post-merge', state: 'installed' }] });
    const removed = await runCli(['git-hooks', 'uninstall', '--json'], { cwd: trio.a, env: trio.env });
    expect(JSON.parse(removed.stdout)).toMatchObject({ autoSync: false, hooks: [{ state: 'absent' }, { state: 'absent' }] });
  });

  it('exits 2 without an action', async () => {
    expect((await runCli(['git-hooks'], { cwd: trio.a, env: trio.env })).code).toBe(2);
  });
});
