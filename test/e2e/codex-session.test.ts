import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexRequests, describeWithCodex, removeRun, resumeMessage, runCodexSession, type CodexRun } from './codex-client';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

function errorLog(out: string): string {
  const path = join(out, 'repo', '.git', 'capsule', 'errors.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

// (a) The real Codex CLI, headless (`codex exec`, then `exec resume`), with the plugin installed
// from a local marketplace: a session edits a file with apply_patch and runs a failing command;
// a turn then reports enough tokens to pass model_auto_compact_token_limit, so Codex compacts
// in the middle of it and the request after the compaction must carry the resume block built
// from that session's checkpoint. (A limit of 40,000 tokens leaves the budget room for its
// margins, so the budget stays quiet and resolvable.)
describeWithCodex('the plugin in a real headless Codex session with an automatic compaction', {}, (harness) => {
  let session: CodexRun;
  beforeAll(() => {
    session = runCodexSession(harness, {
      name: 'auto-compact',
      script: 'codex-script-session.json',
      args: ['-c', 'model_auto_compact_token_limit=40000'],
      prompts: ['E2E-EDIT write the widget', 'E2E-TEST run the widget test', 'E2E-FILL fill the context'],
    });
  }, 900_000);
  afterAll(() => removeRun(session?.out));

  it('runs every step', () => {
    expect({ status: session.run.status, stderr: session.run.stderr.slice(-2000) }).toEqual({ status: 0, stderr: expect.any(String) });
  });

  it('compacts automatically in the third turn', () => {
    expect(codexRequests(session.out).map((r) => r.rule)).toContain('compact-summary');
  });

  it('carries the resume block, with the patched file and the failure, into the first request after the compaction', () => {
    const requests = codexRequests(session.out);
    const compaction = requests.findIndex((r) => r.rule === 'compact-summary');
    const after = requests[compaction + 1]!;
    const block = resumeMessage(after);
    expect(block).toContain('src/widget.txt');
    expect(block).toContain('E2E-FAILURE-MARKER');
    expect(block).toMatch(/trigger "pre-compact"/);
    // After the summary, as its own developer message, and within Codex's 10,000-byte cap (never spilled to a file).
    expect(after.text.indexOf('E2E-CODEX-COMPACT-SUMMARY')).toBeLessThan(after.text.indexOf('GIT-CAPSULE RESUME'));
    expect(Buffer.byteLength(block, 'utf8')).toBeLessThanOrEqual(10_000);
    expect(after.text).not.toContain('Warning: truncated output');
  });

  it('leaves the autosave, the checkpoint and its resumed event on the memory branch', () => {
    const repo = join(session.out, 'repo');
    const journal = git(repo, 'log', '--format=%B', 'refs/heads/capsules');
    expect(journal).toMatch(/Capsule-Trigger: autosave/);
    expect(journal).toMatch(/Capsule-Trigger: pre-compact/);
    expect(git(repo, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules')).toMatch(/status\/[^\n]*-resumed/);
  });

  it("never touches the project's work tree, index or HEAD beyond what the agent did", () => {
    const repo = join(session.out, 'repo');
    expect(git(repo, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(git(repo, 'log', '--oneline', 'main')).toMatch(/^\S+ init$/);
    expect(git(repo, 'status', '--porcelain')).toBe('?? big.txt\n?? src/');
  });

  it('logs no hook errors', () => {
    expect(errorLog(session.out)).toBe('');
  });
});
