import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClaudeClient, findHarness, harnessSession, loggedRequests as requestTexts, REPO_ROOT, PLUGIN_DIR, harnessMissing, clientTmp } from './claude-client';
import { describeIfAvailable } from '../support/needs';
import { runCli } from '../support/run-cli';

const harness = findHarness();

/** The resume block the SessionStart hook injected, as it appears in a request (JSON-escaped). */
function resumeBlock(text: string): string {
  const start = text.indexOf('SessionStart hook additional context: === GIT-CAPSULE RESUME');
  const end = text.indexOf('=== END OF GIT-CAPSULE RESUME ===', start);
  return start === -1 || end === -1 ? '' : text.slice(start, end);
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

// The real client, offline, against the harness's fake API: a session edits a file and hits a
// failing command, is compacted, then cleared; each time the next model request must carry
// the resume text built from that session's autosave.
describeIfAvailable('the real-client suite', harnessMissing(harness))('the plugin in a real Claude Code session', () => {
  const session = harnessSession(harness ?? '', {
    name: 'session',
    script: 'script-session.json',
    prompts: ['E2E-EDIT write the widget', 'E2E-TEST run the widget test', '/compact', 'AFTER-COMPACT what now?', '/clear', '@continue:AFTER-CLEAR what now?'],
  });

  it('runs every step of the session', () => {
    expect({ status: session.run.status, stderr: session.run.stderr.slice(-2000) }).toEqual({ status: 0, stderr: expect.any(String) });
  });

  it('delivers the resume after the compact summary, naming the edited file and the failure', () => {
    const after = requestTexts(session.out).filter((r) => r.text.includes('AFTER-COMPACT'));
    expect(after.length).toBeGreaterThan(0);
    const text = after[0]!.text;
    const block = resumeBlock(text);
    expect(text).toContain('E2E-COMPACT-SUMMARY');
    expect(block).toContain('widget.txt');
    expect(block).toContain('E2E-FAILURE-MARKER');
    expect(block).toMatch(/trigger \\"pre-compact\\"/);
    expect(text.indexOf('E2E-COMPACT-SUMMARY')).toBeLessThan(text.indexOf(block));
  });

  it('carries the resume text into the first request after /clear', () => {
    const after = requestTexts(session.out).filter((r) => r.text.includes('AFTER-CLEAR'));
    expect(after.length).toBeGreaterThan(0);
    const text = after[0]!.text;
    const block = resumeBlock(text);
    expect(block).toContain('widget.txt');
    expect(block).toContain('E2E-FAILURE-MARKER');
    expect(block).toContain('AUTOSAVE');
    expect(text).not.toContain('E2E-COMPACT-SUMMARY');
  });

  it("carries the summariser's state block, read back by PostCompact, into the resume after /clear", () => {
    const after = requestTexts(session.out).find((r) => r.text.includes('AFTER-CLEAR'))!;
    expect(resumeBlock(after.text)).toMatch(/next_valid_action: \\"E2E-STATE-NEXT read the widget test output/);
  });

  it('asks the summariser for the state block in the compaction request', () => {
    const compaction = requestTexts(session.out).find((r) => r.rule === 'compact-summary')!;
    expect(compaction.text).toContain('<capsule-state>');
    expect(compaction.text).toContain('next_valid_action: <the first concrete step to take next>');
  });

  it('leaves the autosave, the checkpoint and the resumed events on the memory branch', () => {
    const repo = join(session.out, 'repo');
    const files = git(repo, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules');
    const journal = git(repo, 'log', '--format=%B', 'refs/heads/capsules');
    expect(journal).toMatch(/Capsule-Trigger: autosave/);
    expect(journal).toMatch(/Capsule-Trigger: pre-compact/);
    expect(files).toMatch(/status\/[^\n]*-resumed/);
  });

  it('logs no hook errors', () => {
    const log = spawnSync('cat', [join(session.out, 'repo', '.git', 'capsule', 'errors.log')], { encoding: 'utf8' });
    expect(log.stdout).toBe('');
  });

  it("lets doctor see the --plugin-dir route from what the plugin's hooks recorded", async () => {
    const { CAPSULE_STATE_DIR: _state, ...env } = process.env;
    const r = await runCli(['doctor', '--json'], { cwd: join(session.out, 'repo'), env: { ...env, HOME: join(session.out, 'home') } });
    const checks = Object.fromEntries((JSON.parse(r.stdout) as Array<{ name: string; detail: string; status: string }>).map((c) => [c.name, c]));
    expect(checks.hooks).toMatchObject({ status: 'ok', detail: expect.stringContaining(`the capsule plugin ran with --plugin-dir (${PLUGIN_DIR})`) });
    expect(checks['hook runs']!.detail).toContain(`history, not wiring: plugin ${PLUGIN_DIR} (`);
    expect(checks['hook runs']!.detail).toContain('--plugin-dir');
    for (const event of ['SessionStart', 'UserPromptSubmit', 'Stop', 'PreCompact', 'SessionEnd']) expect(checks['hook runs']!.detail).toContain(`${event} `);
  });
});

// The same hooks wired by `git capsule install` into the project's .claude/settings.local.json
// instead of the plugin: one turn must leave an autosave on the memory branch.
describeIfAvailable('the real-client suite', harnessMissing(harness))('hooks wired by git capsule install in a real session', () => {
  let out: string;
  let template: string;
  beforeAll(() => {
    const bin = ensureClaudeClient();
    out = mkdtempSync(join(tmpdir(), 'capsule-e2e-install-'));
    template = mkdtempSync(join(tmpdir(), 'capsule-e2e-template-'));
    // install refuses outside a repository: run it in a scratch clone, then template its .claude/.
    const scratch = join(template, 'scratch');
    execFileSync('git', ['init', '-q', scratch]);
    execFileSync(process.execPath, [join(REPO_ROOT, 'dist', 'git-capsule.js'), 'install'], { cwd: scratch, env: { ...process.env, HOME: template, CAPSULE_STATE_DIR: join(template, 'state') } });
    cpSync(join(scratch, '.claude'), join(template, 'files', '.claude'), { recursive: true });
    spawnSync(join(harness!, 'run.sh'), ['-o', out, '-T', join(template, 'files'), '-S', join(__dirname, 'fixtures', 'script-session.json'), '-t', '90', '-p', 'E2E-TEST run the widget test'], {
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_BIN: bin, TMPDIR: clientTmp(template) },
      timeout: 300_000,
    });
  }, 360_000);
  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
    rmSync(template, { recursive: true, force: true });
  });

  it('autosaves the failing command through the settings hooks', () => {
    const repo = join(out, 'repo');
    const files = git(repo, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules').split('\n').filter((p) => p.endsWith('/capsule.md'));
    expect(files).toHaveLength(1);
    expect(git(repo, 'show', `refs/heads/capsules:${files[0]}`)).toContain('E2E-FAILURE-MARKER');
  });
});
