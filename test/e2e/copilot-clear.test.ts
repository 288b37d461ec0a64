import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBundle } from '../support/run-cli';
import { removeRun } from './codex-client';
import { copilotRequests, copilotResumeMessage, runCopilotSession, type CopilotRun } from './copilot-client';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

// `/clear` and `/compact` exist only in the interactive client (driven under tmux). One session,
// A, writes a file and runs a failing test; that command first runs a second real session B
// (`copilot -p`) in the same repository, so the newest capsule on the branch is B's. Then
// `/compact` and two prompts, then `/clear` and a prompt.
// After `/compact` Copilot fires nothing, and what sessionStart injected is gone from the
// context; its preCompact writes the checkpoint and renders the resume, which the next
// userPromptSubmitted injects (lib/hooks/pre-compact.ts, lib/hooks/user-prompt-submit.ts).
// At `/clear` Copilot ends A with `user_exit` and starts the new session as `new`, the same as
// a fresh start: what ties them is the client process both ran in
// (lib/hosts/copilot/session-source.ts). The new session's first request must carry A's work,
// not B's: B's capsule is still the newest active one by creation time (A's checkpoint was spent
// by the compaction's resume, and A's autosave keeps the time it was first written).
/** The README's route: `git capsule install --copilot` (this checkout's built CLI), at user level in the throwaway home. */
function registerHooks({ repo, home }: { repo: string; home: string }): void {
  const r = runBundle(['install', '--copilot'], { cwd: repo, env: { ...process.env, HOME: home, COPILOT_HOME: '' } });
  if (r.code !== 0 || !existsSync(join(home, '.copilot', 'hooks', 'git-capsule.json'))) throw new Error(`git capsule install --copilot failed: ${r.stderr || r.stdout}`);
}

describe('a /compact, then a /clear, in the real Copilot CLI', () => {
  let session: CopilotRun;
  beforeAll(() => {
    session = runCopilotSession({
      name: 'clear',
      script: 'copilot-script-clear.json',
      inputs: ['E2E-EDIT write the widget', 'E2E-TEST run the widget test', '/compact', 'AFTER-COMPACT go on', 'LATER-PROMPT and then?', '/clear', 'AFTER-CLEAR what now?'],
      setup: registerHooks,
    });
  }, 900_000);
  afterAll(() => removeRun(session?.out));

  it('runs every input and exits', () => {
    expect({ status: session.run.status, stderr: session.run.stderr.slice(-2000) }).toEqual({ status: 0, stderr: '' });
  });

  const commits = (grep: string, format: string) => git(session.repo, 'log', `--format=${format}`, '--grep', grep, 'refs/heads/capsules').split('\n').filter(Boolean);

  it('wrote a pre-compact checkpoint', () => {
    expect(git(session.repo, 'log', '--format=%B', 'refs/heads/capsules')).toMatch(/pre-compact/);
  });

  it("carries the session's own resume (objective, file, error) on the first prompt after the compaction, not the other session's", () => {
    const requests = copilotRequests(session.out);
    const first = requests.find((r) => r.rule === 'after-compact')!;
    expect(first).toBeDefined();
    const block = copilotResumeMessage(first);
    expect(block).toContain('src/widget.ts');
    expect(block).toContain('E2E-FAILURE-MARKER');
    expect(block).toContain('E2E-EDIT write the widget');
    expect(block).not.toContain('OTHER-SESSION-MARKER');
    expect(block).not.toContain('tune the gizmo');
    // Before the compaction no request carried a resume: the session started fresh.
    expect(requests.filter((r) => r.seq < first.seq && copilotResumeMessage(r) !== '')).toEqual([]);
  });

  it('injects it once: the prompt after it carries none', () => {
    const later = copilotRequests(session.out).filter((r) => JSON.stringify(r.messages[r.messages.length - 1]).includes('LATER-PROMPT'));
    expect(later.length).toBeGreaterThan(0);
    for (const r of later) expect(JSON.stringify(r.messages[r.messages.length - 1])).not.toContain('=== GIT-CAPSULE RESUME');
  });

  it("had the other session's capsule written after the cleared session's, so it is the newest active one", () => {
    const log = git(session.repo, 'log', '--format=%s%n%b', 'refs/heads/capsules');
    expect(log).toContain('gizmo');
    const created = '%(trailers:key=Capsule-Created-At,valueonly,separator=)';
    const other = commits('gizmo', created)[0];
    const own = commits('widget', created).pop();
    expect(own).toMatch(/^\d{4}-/);
    expect(other).toMatch(/^\d{4}-/);
    expect(Date.parse(other!)).toBeGreaterThan(Date.parse(own!));
    // A's checkpoint was spent by the compaction's resume before the /clear, so at the /clear B's was the newest active capsule.
    const id = '%(trailers:key=Capsule-Id,valueonly,separator=)';
    const subjects = git(session.repo, 'log', '--format=%s', 'refs/heads/capsules');
    const checkpoints = [...new Set(commits('^checkpoint ', id))];
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const checkpoint of checkpoints) expect(subjects).toContain(`status ${checkpoint}: active -> resumed`);
    // The /clear's resume took A's own autosave.
    expect(subjects).toContain(`status ${commits('widget', id).pop()}: active -> resumed`);
  });

  it("carries the cleared session's own resume (objective, file, error) into the first request after /clear, not the other session's", () => {
    const requests = copilotRequests(session.out);
    const first = requests.find((r) => r.rule === 'after-clear')!;
    expect(first).toBeDefined();
    const block = copilotResumeMessage(first);
    expect(block).toContain('widget');
    expect(block).toContain('src/widget.ts');
    expect(block).toContain('E2E-FAILURE-MARKER');
    expect(block).not.toContain('OTHER-SESSION-MARKER');
    expect(block).not.toContain('tune the gizmo');
  });

  it("lists the capsules Copilot wrote, and resumes one on purpose, from the CLI any host's agent runs", () => {
    const cli = (args: string[]) => runBundle(args, { cwd: session.repo, env: { ...process.env, HOME: session.home } });
    const listed = JSON.parse(cli(['list', '--status', 'active,resumed', '--json']).stdout) as Array<{ id: string; status: string; objective?: string }>;
    const other = listed.find((c) => /gizmo/.test(c.objective ?? ''));
    expect(other).toBeDefined();
    // Neither the compaction nor the /clear consumed the other session's: it is still there to take on purpose.
    expect(other!.status).toBe('active');
    const resumed = cli(['resume', '--id', other!.id, '--no-consume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('OTHER-SESSION-MARKER');
  });

  it('logs no hook error', () => {
    let log = '';
    try {
      log = readFileSync(join(session.repo, '.git', 'capsule', 'errors.log'), 'utf8');
    } catch {
      // none written
    }
    expect(log).toBe('');
  });
});
