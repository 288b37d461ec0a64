import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshCheckout } from './support/fresh-checkout';
import { CODEX_HOOK_EVENTS } from '../../lib/hosts/codex/hook-events';
import { describeWithCodex, ensureCodexClient, removeRun, runCodexSession, stagePlugin, type CodexRun } from './codex-client';

const camel = (event: string) => event[0]!.toLowerCase() + event.slice(1);

// (d) The plugin as Codex installs it: `validate.sh` installs it through a local marketplace into
// a throwaway CODEX_HOME and lists the hooks Codex discovered, with Codex's own warnings.
describeWithCodex('the Codex plugin installed from a local marketplace', {}, (harness) => {
  it('validates strictly: every event discovered from hooks/codex-hooks.json, declared --host codex, no warning', () => {
    const staged = stagePlugin();
    try {
      const run = spawnSync(join(harness, 'validate.sh'), [staged.dir, '--strict', '--json'], { encoding: 'utf8', env: { ...process.env, CODEX_BIN: ensureCodexClient() }, timeout: 180_000 });
      expect({ status: run.status, out: run.stdout.slice(-1500) }).toEqual({ status: 0, out: expect.any(String) });
      const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'), run.stdout.lastIndexOf('}') + 1));
      expect(report).toMatchObject({ warnings: [], errors: [] });
      const hooks = report.hooks as Array<{ eventName: string; command: string; timeoutSec: number; sourcePath: string; source: string }>;
      expect(hooks.map((h) => h.eventName).sort()).toEqual(Object.keys(CODEX_HOOK_EVENTS).map(camel).sort());
      for (const h of hooks) {
        const event = Object.keys(CODEX_HOOK_EVENTS).find((e) => camel(e) === h.eventName) as keyof typeof CODEX_HOOK_EVENTS;
        expect(h).toMatchObject({ source: 'plugin', timeoutSec: CODEX_HOOK_EVENTS[event].hostTimeoutSec });
        expect(h.command).toMatch(new RegExp(`/dist/hooks/${CODEX_HOOK_EVENTS[event].file}\\.js" --host codex$`));
        expect(h.sourcePath).toMatch(/\/hooks\/codex-hooks\.json$/);
      }
    } finally {
      staged.cleanup();
    }
  }, 240_000);

  describe('trusted the way /hooks trusts it (no bypass flag)', () => {
    let session: CodexRun;
    beforeAll(() => {
      session = runCodexSession(harness, { name: 'plugin-trusted', script: 'codex-script-session.json', args: ['-A'], prompts: ['E2E-TEST run the widget test'] });
    }, 600_000);
    afterAll(() => removeRun(session?.out));

    it('fires its hooks: the turn is autosaved on the memory branch with the failure', () => {
      expect(session.run.status).toBe(0);
      const repo = join(session.out, 'repo');
      const files = execFileSync('git', ['ls-tree', '-r', '--name-only', 'refs/heads/capsules'], { cwd: repo, encoding: 'utf8' }).split('\n').filter((p) => p.endsWith('/capsule.md'));
      expect(files).toHaveLength(1);
      expect(execFileSync('git', ['show', `refs/heads/capsules:${files[0]}`], { cwd: repo, encoding: 'utf8' })).toContain('E2E-FAILURE-MARKER');
    });

    it('logs no hook error, not even on the first prompt, before Codex has counted a token (no compaction limit configured)', () => {
      const log = join(session.out, 'repo', '.git', 'capsule', 'errors.log');
      expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
    });
  });
});

// The README's Codex route, command for command: a fresh checkout that ran npm install (an 8 MB
// node_modules stands in) as a marketplace; its .agents/plugins/marketplace.json names plugin/,
// which Codex copies into its cache, and nothing else.
describeWithCodex('the repository as a Codex marketplace', {}, () => {
  it('installs plugin/ alone (under 5 MB, no node_modules), and Codex discovers its five hooks', () => {
    const root = mkdtempSync(join(tmpdir(), 'capsule-codex-marketplace-'));
    try {
      const checkout = freshCheckout(join(root, 'git-capsule'));
      const home = join(root, 'home');
      mkdirSync(join(home, '.codex'), { recursive: true });
      writeFileSync(join(home, '.codex', 'config.toml'), 'check_for_update_on_startup = false\n[analytics]\nenabled = false\n');
      const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, '.codex'), TMPDIR: root };
      const codex = (...args: string[]) => execFileSync(ensureCodexClient(), args, { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
      codex('plugin', 'marketplace', 'add', checkout);
      expect(codex('plugin', 'add', 'capsule@git-capsule')).toMatch(/Added plugin `capsule`/);
      const installed = join(home, '.codex', 'plugins', 'cache', 'git-capsule', 'capsule', '0.1.0');
      for (const part of ['.codex-plugin/plugin.json', 'hooks/codex-hooks.json', 'dist/hooks/stop.js', 'dist/hooks/impl/stop.js', 'skills/context-capsule/SKILL.md', 'assets/icon.png', 'LICENSE']) expect(existsSync(join(installed, part))).toBe(true);
      expect(existsSync(join(installed, 'node_modules'))).toBe(false);
      expect(existsSync(join(installed, 'package.json'))).toBe(false);
      const bytes = size(join(home, '.codex', 'plugins', 'cache'));
      expect(bytes).toBeLessThan(5 * 1024 * 1024);
      const registered = JSON.parse(readFileSync(join(installed, 'hooks', 'codex-hooks.json'), 'utf8')).hooks;
      expect(Object.keys(registered).sort()).toEqual(Object.keys(CODEX_HOOK_EVENTS).sort());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 240_000);
});

function size(path: string): number {
  const st = statSync(path);
  return st.isDirectory() ? readdirSync(path).reduce((n, name) => n + size(join(path, name)), 0) : st.size;
}
