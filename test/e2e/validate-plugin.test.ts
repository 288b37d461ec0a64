import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureClaudeClient, findHarness, REPO_ROOT, harnessMissing } from './claude-client';
import { describeIfAvailable } from '../support/needs';

const harness = findHarness();

/** `validate.sh DIR --json` (throwaway HOME, offline): the client's JSON report. */
function validate(dir: string, ...flags: string[]): any {
  const out = execFileSync(join(harness!, 'validate.sh'), [dir, '--json', ...flags], {
    env: { ...process.env, CLAUDE_BIN: ensureClaudeClient() },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return JSON.parse(out.slice(out.indexOf('{')));
}

describeIfAvailable('the real-client suite', harnessMissing(harness))('claude plugin validate', () => {
  it('accepts the repository root as a marketplace', () => {
    const report = validate(REPO_ROOT);
    expect(report).toMatchObject({ success: true, manifest: { type: 'marketplace', errors: [] } });
  }, 240_000);

  it('accepts plugin/, the folder both marketplaces install, with --strict: no symlink to follow, no warning', () => {
    const plugin = join(REPO_ROOT, 'plugin');
    // No package.json in the payload: the client would run npm ci (devDependencies too) in it.
    expect(existsSync(join(plugin, 'package.json'))).toBe(false);
    const report = validate(plugin, '--strict');
    expect(report).toMatchObject({ success: true, manifest: { type: 'plugin', errors: [], warnings: [] } });
    expect(report.provides.hooks.map((h: { event: string }) => h.event).sort()).toEqual(['PostCompact', 'PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
  }, 240_000);
});
