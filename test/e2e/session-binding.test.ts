import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './claude-client';
import { realClientDescribe, resumeBlockIn, StreamHarness } from './support/stream-session';

const CLI = join(REPO_ROOT, 'dist', 'git-capsule.js');

/** Fake-API rules: a marker in the prompt makes the model write a file or run a command; after a tool result it says "done". */
function rules(work: Record<string, { write?: string; bash?: string }>): { rules: unknown[] } {
  return {
    rules: [
      { name: 'side-request', when: { hasTools: false }, respond: { text: 'side' } },
      { name: 'after-tool', when: { lastIsToolResult: true }, respond: { text: 'done' } },
      ...Object.entries(work).map(([marker, w]) => ({
        name: marker,
        when: { prompt: marker },
        respond: { tool_use: w.bash ? { name: 'Bash', input: { command: w.bash, description: marker } } : { name: 'Write', input: { file_path: `{{cwd}}/${w.write}`, content: `${marker}\n` } } },
      })),
      { name: 'default-text', when: { any: true }, respond: { text: 'ok' } },
    ],
  };
}

function resumeBefore(h: StreamHarness, marker: string): string {
  const request = h.firstRequestWith(marker);
  if (!request) throw new Error(`no request carries ${marker}`);
  return resumeBlockIn(request.text);
}

function objectiveOf(block: string): string {
  const line = /^\s*objective: (.+)$/m.exec(block)?.[1];
  if (!line) throw new Error(`no objective in the resume block:\n${block}`);
  return line;
}

function errorLog(repo: string): string {
  try {
    return readFileSync(join(repo, '.git', 'capsule', 'errors.log'), 'utf8');
  } catch {
    return '';
  }
}

/** The environment of a terminal outside any agent: no session or client variable of ours or of the runner's. */
function plainEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(CLAUDE|CODEX|CAPSULE_)/.test(k)));
  return { ...env, HOME: home };
}

// (a) The resume skill's path: inside a session that already has an autosave of an earlier task,
// the agent loads a handoff with `git capsule resume --id` from the Bash tool, works on, and the
// user clears. The session after the /clear must get the loaded work, not the earlier task.
realClientDescribe('git capsule resume --id inside a session, then /clear', () => {
  let h: StreamHarness;
  let shellEnv = '';
  beforeAll(async () => {
    h = await StreamHarness.start({
      name: 'session-binding',
      script: rules({
        'EARLIER-EDIT': { write: 'earlier.txt' },
        // What the skill runs; the shell's CLAUDE_* variables are kept beside it to say which session ran it.
        'LOAD-HANDOFF': { bash: `env | grep -E '^CLAUDE_(PID|CODE_SESSION_ID)=' > "$HOME/shell-env.txt"; node ${JSON.stringify(CLI)} resume --id "$(cat ../handoff-id)"` },
        'HANDOFF-GO': { write: 'stream.txt' },
      }),
    });
    const s = h.session({ name: 's' });
    await s.send('EARLIER-TASK rename the config loader EARLIER-EDIT');
    // A handoff written by hand in another terminal (no session of its own).
    const id = execFileSync(process.execPath, [CLI, 'write', '--objective', 'HANDOFF-WORK wire the streaming writer into the export command', '--waiting-on', 'nothing', '--next', 'Remove the buffered path'], { cwd: h.repo, env: plainEnv(h.home), encoding: 'utf8' }).trim();
    writeFileSync(join(h.out, 'handoff-id'), id);
    await s.send('LOAD-HANDOFF load the handoff capsule');
    // Under the client's HOME, which the autosave records as `~/shell-env.txt` (a random temp
    // folder outside it would be masked as an opaque token and logged as a redaction).
    shellEnv = readFileSync(join(h.home, 'shell-env.txt'), 'utf8');
    await s.send('HANDOFF-GO go on with it');
    await s.clear();
    await s.send('AFTER-CLEAR what now?');
    await s.close();
  }, 600_000);
  afterAll(async () => h?.close());

  it("runs the agent's command with the session's id and the client's pid in its environment", () => {
    expect(shellEnv).toMatch(/^CLAUDE_CODE_SESSION_ID=\S+$/m);
    expect(shellEnv).toMatch(/^CLAUDE_PID=\d+$/m);
  });

  it('loads the handoff in the session (the resume text comes back as the tool result)', () => {
    expect(h.firstRequestWith('HANDOFF-GO')?.text).toMatch(/GIT-CAPSULE RESUME[\s\S]*HANDOFF-WORK wire the streaming writer/);
  });

  it('hands the session after the /clear the loaded work as its objective, with what was done on it', () => {
    const block = resumeBefore(h, 'AFTER-CLEAR');
    expect(objectiveOf(block)).toContain('HANDOFF-WORK wire the streaming writer');
    expect(block).toContain('stream.txt');
    expect(objectiveOf(block)).not.toContain('EARLIER-TASK');
  });

  it('logs no hook errors', () => {
    expect(errorLog(h.repo)).toBe('');
  });
});

// (b) `claude --resume <id>` of an ended session while another session runs in the same
// repository: the orientation names the resumed session's own capsule, never the other's, and a
// /clear after it hands back the resumed session's work.
realClientDescribe('claude --resume beside another live session, then /clear', () => {
  let h: StreamHarness;
  beforeAll(async () => {
    h = await StreamHarness.start({ name: 'resume-binding', script: rules({ 'OWN-EDIT': { write: 'own.txt' }, 'BETA-EDIT': { write: 'beta.txt' } }) });
    const first = h.session({ name: 'first' });
    await first.send('OWN-WORK fix the date parser OWN-EDIT');
    const id = first.sessionId!;
    await first.close();
    const other = h.session({ name: 'other' });
    await other.send('BETA-LIVE make the lexer incremental BETA-EDIT');
    const resumed = h.session({ name: 'resumed', args: ['--resume', id] });
    await resumed.send('RESUMED-TURN where were we?');
    await resumed.clear();
    await resumed.send('AFTER-RESUME-CLEAR what now?');
    await Promise.all([resumed.close(), other.close()]);
  }, 600_000);
  afterAll(async () => h?.close());

  it("orients the resumed session on its own capsule, not on the other session's newer one", () => {
    const request = h.firstRequestWith('RESUMED-TURN');
    expect(request?.text).toContain("this session's own capsule is");
    expect(request?.text).not.toContain('BETA-LIVE');
  });

  it("hands the /clear after --resume the resumed session's own work", () => {
    const block = resumeBefore(h, 'AFTER-RESUME-CLEAR');
    expect(objectiveOf(block)).toContain('OWN-WORK');
    expect(block).toContain('own.txt');
    expect(block).not.toMatch(/BETA|beta\.txt/);
  });

  it('logs no hook errors', () => {
    expect(errorLog(h.repo)).toBe('');
  });
});
