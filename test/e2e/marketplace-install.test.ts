import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempRepo, payload } from '../hooks/hook-fixtures';
import { runCli } from '../support/run-cli';
import { describeIfAvailable } from '../support/needs';
import { tempDir } from '../support/temp-dirs';
import { clientTmp, ensureClaudeClient, findHarness, harnessMissing, REPO_ROOT } from './claude-client';

const OFFLINE = spawnSync('unshare', ['-n', 'true']).status === 0;

/** `claude <args>` the way validate.sh runs it: throwaway HOME, no network namespace to reach, no telemetry. */
function claude(home: string, args: string[]) {
  const bin = ensureClaudeClient();
  const env = { PATH: process.env.PATH, HOME: home, TMPDIR: clientTmp(home), CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1' };
  const [cmd, argv] = OFFLINE ? ['unshare', ['-n', bin, ...args]] : [bin, args];
  return spawnSync(cmd, argv, { env, encoding: 'utf8', timeout: 120_000 });
}

function size(path: string): number {
  const st = statSync(path);
  return st.isDirectory() ? readdirSync(path).reduce((n, name) => n + size(join(path, name)), 0) : st.size;
}

// The README's install route, with the real client offline: add this repository as a marketplace
// by its path, install capsule@git-capsule from it, then run a hook from the installed copy.
describeIfAvailable('the real-client suite', harnessMissing(findHarness()))('/plugin marketplace add, then /plugin install capsule@git-capsule', () => {
  let home: string;
  let installPath: string;
  beforeAll(() => {
    home = tempDir('capsule-e2e-marketplace-');
    const added = claude(home, ['plugin', 'marketplace', 'add', REPO_ROOT]);
    expect({ status: added.status, out: added.stdout + added.stderr }).toEqual({ status: 0, out: expect.stringContaining('git-capsule') });
    const installed = claude(home, ['plugin', 'install', 'capsule@git-capsule', '--json']);
    expect({ status: installed.status, out: installed.stdout + installed.stderr }).toEqual({ status: 0, out: expect.stringContaining('"outcome":"ok"') });
    installPath = JSON.parse(readFileSync(join(home, '.claude', 'plugins', 'installed_plugins.json'), 'utf8')).plugins['capsule@git-capsule'][0].installPath;
  }, 300_000);

  it('lists the plugin as installed and enabled', () => {
    const list = claude(home, ['plugin', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'capsule@git-capsule', enabled: true })]));
  }, 120_000);

  it('copies the plugin alone: manifest, hooks, skills, bundles; no package.json, so no npm ci; under 3 MB', () => {
    for (const file of ['.claude-plugin/plugin.json', 'hooks/hooks.json', 'skills/context-capsule/SKILL.md', 'dist/hooks/session-start.js', 'dist/git-capsule.js']) expect(existsSync(join(installPath, file))).toBe(true);
    expect(existsSync(join(installPath, 'package.json'))).toBe(false);
    expect(existsSync(join(installPath, 'node_modules'))).toBe(false);
    expect(size(installPath)).toBeLessThan(3 * 1024 * 1024);
  });

  it("runs SessionStart(clear) from the installed copy: the capsule comes back", async () => {
    const repo = makeTempRepo();
    try {
      const written = await runCli(['write', '--objective', 'MARKETPLACE-E2E objective', '--waiting-on', 'nothing', '--next', 'check the install'], { cwd: repo.dir, env: repo.env });
      const id = written.stdout.trim();
      const r = spawnSync(process.execPath, [join(installPath, 'dist', 'hooks', 'session-start.js')], {
        input: JSON.stringify(payload('SessionStart', { cwd: repo.dir, source: 'clear' })),
        env: { ...repo.env, CLAUDE_PLUGIN_ROOT: installPath, CLAUDE_PROJECT_DIR: repo.dir },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(0);
      const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
      expect(context).toContain('=== GIT-CAPSULE RESUME');
      expect(context).toContain(`capsule ${id}`);
      expect(context).toContain('MARKETPLACE-E2E objective');
    } finally {
      repo.cleanup();
    }
  });
});
