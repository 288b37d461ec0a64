import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ensureClaudeClient, findHarness, REPO_ROOT } from './claude-client';

const harness = findHarness();

(harness ? describe : describe.skip)('claude plugin validate', () => {
  it('accepts the repository root as a plugin', () => {
    const bin = ensureClaudeClient();
    const out = execFileSync(join(harness!, 'validate.sh'), [REPO_ROOT, '--json'], {
      env: { ...process.env, CLAUDE_BIN: bin },
      encoding: 'utf8',
      timeout: 90_000,
    });
    const report = JSON.parse(out.slice(out.indexOf('{')));
    expect(report).toMatchObject({ success: true, manifest: { errors: [] } });
    expect(report.provides.hooks.map((h: { event: string }) => h.event).sort()).toEqual(['PreCompact', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
  }, 240_000);
});
