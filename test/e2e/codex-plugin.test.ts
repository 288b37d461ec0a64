import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
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
  });
});
