import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexRequests, describeWithCodex, ensureCodexClient, removeRun, resumeMessage, runCodexSession, type CodexRun } from './codex-client';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

// (b) `/clear` exists only in the interactive TUI (driven under tmux by the harness's
// tui-step.sh). Session A edits a file and hits a failing command (headless); as that turn ends,
// a second real session B works in the same repository (a test-only Stop hook runs `codex exec`
// and waits), so the newest capsule on the branch is B's. Then A goes on in the TUI: one turn,
// `/clear`, a prompt. The first request of the new session must carry A's work, not B's. Codex
// runs no SessionEnd at /clear, so the lineage comes from the client process the TUI's hooks
// share (codexLineageSignal in lib/hosts/codex/client-process.ts).
// The TUI looks idle while a turn's Stop hooks run ('esc to interrupt' is gone), and a /clear
// typed then is refused ("'/clear' is disabled while a task is in progress"). tui-step.sh waits
// for that idle look only, so before the /clear the test presses a key that does nothing (End,
// in the empty composer) until the Stop hooks' 10 s timeout has surely passed: each press
// waits about a second for idle again.
const STOP_HOOKS_DONE = Array.from({ length: 12 }, () => '<key:End>').join(';;');

describeWithCodex('a /clear in the real Codex TUI', { tmux: true }, (harness) => {
  let session: CodexRun;
  let hooksDir: string;
  beforeAll(() => {
    hooksDir = mkdtempSync(join(tmpdir(), 'capsule-codex-tui-hooks-'));
    const hooks = join(hooksDir, 'hooks.json');
    const spawn = `node "${join(__dirname, 'fixtures', 'codex-spawn-other.mjs')}"`;
    const hook = { type: 'command', command: spawn, timeout: 60 };
    writeFileSync(hooks, JSON.stringify({ hooks: { Stop: [{ hooks: [hook] }] } }));
    session = runCodexSession(harness, {
      name: 'tui-clear',
      script: 'codex-script-tui.json',
      args: ['-H', hooks],
      env: { CXH_EXTRA_ENV: `CAPSULE_E2E_CODEX=${ensureCodexClient()}`, CXH_TUI_IDLE_S: '60' },
      prompts: ['E2E-EDIT write the widget', 'E2E-TEST run the widget test', `@tui:A-TUI-TURN keep going;;${STOP_HOOKS_DONE};;/clear;;AFTER-CLEAR what now?`],
    });
  }, 900_000);
  afterAll(() => {
    removeRun(session?.out);
    rmSync(hooksDir, { recursive: true, force: true });
  });

  it('runs every step, the TUI one included, and the TUI takes the /clear', () => {
    expect({ status: session.run.status, stderr: session.run.stderr.slice(-2000) }).toEqual({ status: 0, stderr: expect.any(String) });
    expect(readFileSync(join(session.out, 'step-3.screen.txt'), 'utf8')).not.toContain('disabled while a task is in progress');
  });

  // Each session's capsules, found by the session the commit trailers name (their subjects are the autosave's objective).
  const sessionOf = (rule: string) => codexRequests(session.out).find((r) => r.rule === rule)!.sessionId!;
  const commitsOf = (sessionId: string, format: string) =>
    git(join(session.out, 'repo'), 'log', `--format=${format}`, '--grep', `^Capsule-Session: ${sessionId}$`, 'refs/heads/capsules').split('\n').filter(Boolean);

  it("had the other session's capsule created after the cleared session's, so it is the newest", () => {
    const createdAt = '%(trailers:key=Capsule-Created-At,valueonly,separator=)';
    // The first autosave of each (the session after the /clear carries A's work forward in a capsule of its own).
    const own = commitsOf(sessionOf('edit-files'), createdAt).pop();
    const other = commitsOf(sessionOf('other-work'), createdAt).pop();
    expect(own).toMatch(/^\d{4}-/);
    expect(other).toMatch(/^\d{4}-/);
    expect(Date.parse(other!)).toBeGreaterThan(Date.parse(own!));
  });

  it("carries the cleared session's own resume into the new session's first request, not the other session's", () => {
    const requests = codexRequests(session.out);
    const first = requests.find((r) => r.rule === 'after-clear')!;
    const before = requests.find((r) => r.rule === 'tui-turn')!;
    expect(first.sessionId).not.toBe(before.sessionId);
    expect(requests.filter((r) => r.sessionId === first.sessionId && r.rule !== 'title')[0]).toBe(first);
    const block = resumeMessage(first);
    expect(block).toContain('src/widget.txt');
    expect(block).toContain('E2E-FAILURE-MARKER');
    expect(block).not.toContain('OTHER-SESSION-MARKER');
    expect(block).not.toContain('tune the gizmo');
  });

  it("leaves the other session's capsule unconsumed", () => {
    const ids = [...new Set(commitsOf(sessionOf('other-work'), '%(trailers:key=Capsule-Id,valueonly,separator=)'))];
    expect(ids).toHaveLength(1);
    expect(git(join(session.out, 'repo'), 'ls-tree', '-r', '--name-only', 'refs/heads/capsules')).not.toMatch(new RegExp(`${ids[0]}[^\\n]*resumed`));
  });
});
