import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { makeTempRepo, payload } from '../hooks/hook-fixtures';
import { runCli } from '../support/run-cli';
import { describeIfAvailable } from '../support/needs';
import { tempDir } from '../support/temp-dirs';
import { freshCheckout } from './support/fresh-checkout';
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

type Check = { name: string; status: string; detail: string; fix?: string };

// The README's Claude Code plugin route, command for command, with the real client offline: add a
// fresh checkout as a marketplace by its path (a file:// URL is refused, as the README says),
// install capsule@git-capsule, run a hook from the installed copy, then uninstall it; doctor
// follows the wiring at each step.
describeIfAvailable('the real-client suite', harnessMissing(findHarness()))('/plugin marketplace add, then /plugin install capsule@git-capsule', () => {
  let home: string;
  let checkout: string;
  let installPath: string;
  beforeAll(() => {
    home = tempDir('capsule-e2e-marketplace-');
    checkout = freshCheckout(join(tempDir('capsule-e2e-checkout-'), 'git-capsule'));
    const added = claude(home, ['plugin', 'marketplace', 'add', checkout]);
    expect({ status: added.status, out: added.stdout + added.stderr }).toEqual({ status: 0, out: expect.stringContaining('git-capsule') });
    const installed = claude(home, ['plugin', 'install', 'capsule@git-capsule', '--json']);
    expect({ status: installed.status, out: installed.stdout + installed.stderr }).toEqual({ status: 0, out: expect.stringContaining('"outcome":"ok"') });
    installPath = JSON.parse(readFileSync(join(home, '.claude', 'plugins', 'installed_plugins.json'), 'utf8')).plugins['capsule@git-capsule'][0].installPath;
  }, 300_000);

  it('refuses a file:// URL with the message the README quotes', () => {
    const other = tempDir('capsule-e2e-marketplace-url-');
    const r = claude(other, ['plugin', 'marketplace', 'add', `file://${checkout}`]);
    expect(r.stdout + r.stderr).toContain('Invalid marketplace source format. Try: owner/repo, https://..., or ./path');
  }, 120_000);

  it('lists the plugin as installed and enabled', () => {
    const list = claude(home, ['plugin', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'capsule@git-capsule', enabled: true })]));
  }, 120_000);

  it('copies plugin/ alone, file for file: no package.json (so no npm ci), no node_modules, under 3 MB', () => {
    expect(walk(installPath).sort()).toEqual(walk(join(checkout, 'plugin')).sort());
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

  it('doctor says the installed plugin runs the hooks; after claude plugin uninstall, that no route does (its runs only history)', async () => {
    const repo = makeTempRepo();
    try {
      const doctor = async () => Object.fromEntries((JSON.parse((await runCli(['doctor', '--json'], { cwd: repo.dir, env: { ...repo.env, HOME: home } })).stdout) as Check[]).map((c) => [c.name, c]));
      spawnSync(process.execPath, [join(installPath, 'dist', 'hooks', 'user-prompt-submit.js')], {
        input: JSON.stringify(payload('UserPromptSubmit', { cwd: repo.dir })),
        env: { ...repo.env, CLAUDE_PLUGIN_ROOT: installPath, CLAUDE_PLUGIN_DATA: join(home, '.claude', 'plugins', 'data', 'capsule-git-capsule'), CLAUDE_PROJECT_DIR: repo.dir },
        encoding: 'utf8',
      });
      expect((await doctor()).hooks).toMatchObject({ status: 'ok', detail: expect.stringContaining('the capsule plugin (installed: capsule@git-capsule, user scope) runs the hooks') });
      const removed = claude(home, ['plugin', 'uninstall', 'capsule@git-capsule']);
      expect(removed.status).toBe(0);
      const after = await doctor();
      expect(after.hooks).toMatchObject({ status: 'warn', detail: expect.stringContaining('no route runs the git-capsule hooks') });
      expect(after['hook runs']!.detail).toMatch(/^history, not wiring: plugin /);
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});

/** Every file below a folder, relative. */
function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name), base) : [relative(base, join(dir, name))]));
}
