import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClaudeClient, findHarness, REPO_ROOT, harnessMissing } from './claude-client';
import { describeIfAvailable } from '../support/needs';

const harness = findHarness();

/** `validate.sh DIR --json` (throwaway HOME, offline): the client's JSON report. */
function validate(dir: string): any {
  const out = execFileSync(join(harness!, 'validate.sh'), [dir, '--json'], {
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

  it('accepts the plugin the marketplace installs, copied as the client copies it (links followed)', () => {
    const copy = mkdtempSync(join(tmpdir(), 'capsule-plugin-copy-'));
    try {
      cpSync(join(REPO_ROOT, 'plugin'), copy, { recursive: true, dereference: true });
      // No package.json in the payload: the client would run npm ci (devDependencies too) in it.
      expect(existsSync(join(copy, 'package.json'))).toBe(false);
      const report = validate(copy);
      expect(report).toMatchObject({ success: true, manifest: { type: 'plugin', errors: [] } });
      expect(report.provides.hooks.map((h: { event: string }) => h.event).sort()).toEqual(['PostCompact', 'PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 240_000);
});
