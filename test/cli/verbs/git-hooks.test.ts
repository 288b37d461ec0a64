import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_BUNDLE, runBundle, runCli } from '../../support/run-cli';
import { makeTrio, removeTrio, type Trio } from '../../sync/sync-trio';

let trio: Trio;
beforeEach(() => {
  trio = makeTrio();
});
afterEach(() => removeTrio(trio));

describe('git capsule git-hooks', () => {
  it('installs, reports and uninstalls as JSON', async () => {
    const installed = await runCli(['git-hooks', 'install', '--json'], { cwd: trio.a, env: trio.env });
    expect(installed.code).toBe(0);
    expect(JSON.parse(installed.stdout)).toMatchObject({ autoSync: true, hooks: [{ event: 'pre-push', state: 'installed' }, { event: 'post-merge', state: 'installed' }, { event: 'post-rewrite', state: 'installed' }] });
    const removed = await runCli(['git-hooks', 'uninstall', '--json'], { cwd: trio.a, env: trio.env });
    expect(JSON.parse(removed.stdout)).toMatchObject({ autoSync: false, hooks: [{ state: 'absent' }, { state: 'absent' }, { state: 'absent' }] });
  });

  it('writes hooks that call the bundle by absolute path when run from the bundle', () => {
    const r = runBundle(['git-hooks', 'install'], { cwd: trio.a, env: trio.env });
    expect(r.code).toBe(0);
    expect(readFileSync(join(trio.a, '.git', 'hooks', 'pre-push'), 'utf8')).toContain(`'${realpathSync(CLI_BUNDLE)}' sync --quiet -- "$1"`);
  });

  it('exits 2 without an action', async () => {
    expect((await runCli(['git-hooks'], { cwd: trio.a, env: trio.env })).code).toBe(2);
  });
});
