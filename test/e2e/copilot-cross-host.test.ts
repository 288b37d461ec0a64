import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { runBundle } from '../support/run-cli';
import { tempDir } from '../support/temp-dirs';
import { REPO_ROOT } from './claude-client';
import { describeWithCodex, removeRun, startCodexSession, type CodexRun } from './codex-client';
import { runCopilotSession, type CopilotRun } from './copilot-client';
import { makeRepo, StreamHarness, type StreamSession } from './support/stream-session';

const CLI = join(REPO_ROOT, 'dist', 'git-capsule.js');
// Absolute, so the agents' shells find them whatever a login shell does to PATH.
const NODE = process.execPath;
/** What an agent runs when the user names a capsule: the list, then `git capsule resume --id` with the id the user gave. */
const RESUME_NAMED = `"${NODE}" "${CLI}" list && "${NODE}" "${CLI}" resume --id {{prompt1}}`;
/** The user's words: resume this capsule. The fake models capture the id from them ({{prompt1}}). */
const NAMED = 'RESUME-ON-PURPOSE ([0-9A-Z]{26})';

// One repository, one memory branch, three real clients. Claude Code and Codex each do a piece of
// work (a file, a failing test) and autosave; a Copilot session does its own, and the user asks it
// for each of those two capsules by id; then the user asks the still-running Claude Code session,
// and a new Codex session, for the Copilot capsule. Each resume is the agent running
// `git capsule list` and `git capsule resume --id <id>` in its shell, as the resume skill says;
// the request the client sends next carries that capsule's objective, file and error.
const claudeRules = {
  rules: [
    { name: 'side-request', when: { hasTools: false }, respond: { text: 'side' } },
    { name: 'claude-after-failure', when: { lastIsToolResult: true, toolResultText: 'CLAUDE-FAILURE-MARKER' }, respond: { text: 'The parser test failed; next I will fix the parser.' } },
    { name: 'resumed', when: { lastIsToolResult: true, toolResultText: '=== GIT-CAPSULE RESUME' }, respond: { text: 'Loaded that capsule.' } },
    { name: 'claude-test', when: { lastIsToolResult: true, toolResultText: 'parser\\.txt' }, respond: { tool_use: { name: 'Bash', input: { command: "echo 'CLAUDE-FAILURE-MARKER parser test failed' >&2; exit 3", description: 'run the parser test' } } } },
    { name: 'after-tool', when: { lastIsToolResult: true }, respond: { text: 'done' } },
    { name: 'claude-work', when: { prompt: 'CLAUDE-WORK' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/src/parser.txt', content: 'parser v1\n' } } } },
    { name: 'resume-named', when: { prompt: NAMED }, respond: { tool_use: { name: 'Bash', input: { command: RESUME_NAMED, description: 'load the capsule the user named' } } } },
    { name: 'default-text', when: { any: true }, respond: { text: 'ok' } },
  ],
};

const codexRules = {
  rules: [
    { name: 'title', when: { prompt: '^Generate a concise, single-line task title' }, respond: { text: 'Gauge work', input_tokens: 500 } },
    { name: 'codex-after-failure', when: { lastIsToolOutput: true, toolOutputText: 'CODEX-FAILURE-MARKER' }, respond: { text: 'The gauge test failed; next I will fix the gauge.', input_tokens: 2000 } },
    { name: 'resumed', when: { lastIsToolOutput: true, toolOutputText: '=== GIT-CAPSULE RESUME' }, respond: { text: 'Loaded that capsule.', input_tokens: 2000 } },
    { name: 'codex-test', when: { lastIsToolOutput: true, prompt: 'CODEX-WORK' }, respond: { function_call: { name: 'exec_command', arguments: { cmd: "echo 'CODEX-FAILURE-MARKER gauge test failed' >&2; exit 3" } }, input_tokens: 2000 } },
    { name: 'after-tool', when: { lastIsToolOutput: true }, respond: { text: 'done', input_tokens: 2000 } },
    { name: 'codex-work', when: { prompt: 'CODEX-WORK' }, respond: { custom_tool_call: { name: 'apply_patch', input: '*** Begin Patch\n*** Add File: src/gauge.txt\n+gauge v1\n*** End Patch\n' }, input_tokens: 2000 } },
    { name: 'resume-named', when: { prompt: NAMED }, respond: { function_call: { name: 'exec_command', arguments: { cmd: RESUME_NAMED } }, input_tokens: 2000 } },
    { name: 'default-text', when: { any: true }, respond: { text: 'ok', input_tokens: 2000 } },
  ],
};

// The Copilot session's failing test first runs a second real Copilot session (`copilot -p`,
// the way test/e2e/copilot-clear.test.ts does), so there are two Copilot capsules: one for each
// host to take (a capsule resumed once is spent, even by id). That second session's turn ends in
// a failed model call: Copilot then runs no agentStop, only sessionEnd (reason `error`; and
// errorOccurred, which git-capsule does not register), whose last autosave saves its work.
const copilotRules = {
  rules: [
    { name: 'copilot-after-failure', when: { lastIsToolOutput: true, toolOutputText: 'COPILOT-FAILURE-MARKER' }, respond: { text: 'The lexer test failed; next I will fix the lexer.', input_tokens: 2000 } },
    { name: 'gizmo-model-error', when: { lastIsToolOutput: true, toolOutputText: 'GIZMO-FAILURE-MARKER' }, respond: { error: { status: 400, message: 'GIZMO-API-ERROR the provider refused the request' } } },
    // Asked for two capsules, the agent loads the second once the first is in.
    { name: 'resume-second', times: 1, when: { lastIsToolOutput: true, toolOutputText: '=== GIT-CAPSULE RESUME', prompt: 'RESUME-ON-PURPOSE [0-9A-Z]{26} AND ([0-9A-Z]{26})' }, respond: { tool_call: { name: 'bash', arguments: { command: RESUME_NAMED, description: 'load the second capsule the user named' } }, input_tokens: 2000 } },
    { name: 'resumed', when: { lastIsToolOutput: true, toolOutputText: '=== GIT-CAPSULE RESUME' }, respond: { text: 'Loaded that capsule.', input_tokens: 2000 } },
    { name: 'copilot-test', when: { lastIsToolOutput: true, prompt: 'COPILOT-WORK' }, respond: { tool_call: { name: 'bash', arguments: { command: `"$HOME/copilot-again.sh" -p 'COPILOT-OTHER tune the gizmo' --allow-all-tools >/dev/null 2>&1; echo 'COPILOT-FAILURE-MARKER lexer test failed' >&2; exit 3`, description: 'run the lexer test', initial_wait: 120 } }, input_tokens: 2000 } },
    { name: 'gizmo-test', when: { lastIsToolOutput: true, prompt: 'COPILOT-OTHER' }, respond: { tool_call: { name: 'bash', arguments: { command: "echo 'GIZMO-FAILURE-MARKER gizmo test failed' >&2; exit 4", description: 'run the gizmo test' } }, input_tokens: 2000 } },
    { name: 'copilot-work', when: { prompt: 'COPILOT-WORK' }, respond: { tool_call: { name: 'bash', arguments: { command: "mkdir -p src && printf 'lexer v1\\n' > src/lexer.ts && echo wrote", description: 'write the lexer' } }, input_tokens: 2000 } },
    { name: 'gizmo-work', when: { prompt: 'COPILOT-OTHER' }, respond: { tool_call: { name: 'bash', arguments: { command: "mkdir -p src && printf 'gizmo v1\\n' > src/gizmo.ts && echo wrote", description: 'write the gizmo' } }, input_tokens: 2000 } },
    { name: 'resume-named', when: { prompt: NAMED }, respond: { tool_call: { name: 'bash', arguments: { command: RESUME_NAMED, description: 'load the capsule the user named' } }, input_tokens: 2000 } },
    { name: 'default-text', when: { any: true }, respond: { text: 'ok', input_tokens: 2000 } },
  ],
};

/** Every string inside `value`, joined: a message's text with its JSON escapes undone. */
function stringsIn(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(stringsIn).join('\n');
  if (value !== null && typeof value === 'object') return Object.values(value).map(stringsIn).join('\n');
  return '';
}

/** The requests a fake API logged, with the rule each matched and the text of its last message (or input item). */
function lastMessages(out: string, key: 'messages' | 'input'): Array<{ rule: string; last: string }> {
  return readFileSync(join(out, 'requests.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((r) => Array.isArray(r.body?.[key]))
    .map((r) => ({ rule: r.rule as string, last: stringsIn(r.body[key][r.body[key].length - 1]) }));
}

/** The tool output the client sent right after the agent loaded capsule `id` on purpose. */
function loadedInto(requests: Array<{ rule: string; last: string }>, id: string): string {
  const hit = requests.find((r) => r.last.includes('=== GIT-CAPSULE RESUME') && r.last.includes(`id: "${id}"`));
  if (!hit) throw new Error(`no request carries capsule ${id} as a tool output`);
  return hit.last;
}

interface Listed {
  id: string;
  objective?: string;
}

describeWithCodex('capsules across the real Copilot CLI, Claude Code and Codex on one branch', { tmux: true }, (codexHarness) => {
  let root: string;
  let repo: string;
  let claude: StreamHarness;
  let claudeSession: StreamSession;
  let codexWork: CodexRun;
  let codexResume: CodexRun;
  let copilot: CopilotRun;
  const ids = { claude: '', codex: '', copilot: '', copilotOther: '' };
  const codexHooks = () => join(root, 'codex-hooks.json');
  const hookBin = () => {
    const bin = join(root, 'bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'git-capsule-hook'))) symlinkSync(join(REPO_ROOT, 'bin', 'git-capsule-hook'), join(bin, 'git-capsule-hook'));
    return bin;
  };

  const listed = (): Listed[] => JSON.parse(runBundle(['list', '--json'], { cwd: repo, env: { ...process.env, HOME: join(root, 'cli-home') } }).stdout);
  const idOf = (objective: RegExp): string => listed().find((c) => objective.test(c.objective ?? ''))?.id ?? '';
  const codexRun = (name: string, prompt: string) =>
    startCodexSession(codexHarness, { name, script: join(root, 'codex-rules.json'), plugin: false, args: ['-R', repo, '-H', codexHooks()], prompts: [prompt] });

  beforeAll(async () => {
    const keep = process.env.CAPSULE_E2E_KEEP;
    root = keep && isAbsolute(keep) && existsSync(keep) ? mkdtempSync(join(keep, 'capsule-copilot-cross-')) : tempDir('capsule-copilot-cross-');
    repo = makeRepo(join(root, 'repo'));
    writeFileSync(join(root, 'codex-rules.json'), JSON.stringify(codexRules));
    writeFileSync(join(root, 'copilot-rules.json'), JSON.stringify(copilotRules));
    // Codex's hooks as the plugin ships them (hooks/codex-hooks.json, `--host codex`), at user level.
    writeFileSync(codexHooks(), readFileSync(join(REPO_ROOT, 'hooks', 'codex-hooks.json'), 'utf8').split('${PLUGIN_ROOT}').join(REPO_ROOT));

    // Claude Code and Codex work in the repository at once.
    claude = await StreamHarness.start({ name: 'copilot-cross', script: claudeRules });
    claudeSession = claude.session({ name: 'claude', cwd: repo });
    [, codexWork] = await Promise.all([claudeSession.send('CLAUDE-WORK make the parser stream'), codexRun('cross-work', 'CODEX-WORK calibrate the gauge')]);
    ids.claude = idOf(/CLAUDE-WORK/);
    ids.codex = idOf(/CODEX-WORK/);

    // A Copilot session works, then the user asks it for each of those capsules by id.
    copilot = runCopilotSession({
      name: 'cross',
      script: join(root, 'copilot-rules.json'),
      repo,
      inputs: ['COPILOT-WORK make the lexer incremental', `RESUME-ON-PURPOSE ${ids.claude} AND ${ids.codex} the Claude Code and the Codex work`],
      // The repository's registration (`.github/hooks/`, which Copilot loads in a trusted folder),
      // its commands `git-capsule-hook <event>` from PATH, as an `npm install -g git-capsule` leaves it.
      setup: ({ home }) => {
        const r = runBundle(['install', '--copilot', '--project'], { cwd: repo, env: { ...process.env, HOME: home, COPILOT_HOME: '' } });
        if (r.code !== 0) throw new Error(`git capsule install --copilot --project failed: ${r.stderr || r.stdout}`);
      },
      env: { PATH: `${hookBin()}:${process.env.PATH}` },
    });
    ids.copilot = idOf(/COPILOT-WORK/);
    ids.copilotOther = idOf(/COPILOT-OTHER/);

    // The running Claude Code session, and a new Codex session, are each asked for a Copilot capsule.
    [, codexResume] = await Promise.all([claudeSession.send(`RESUME-ON-PURPOSE ${ids.copilot} the Copilot work`), codexRun('cross-resume', `RESUME-ON-PURPOSE ${ids.copilotOther} the other Copilot work`)]);
    await claudeSession.close();
  }, 900_000);
  afterAll(async () => {
    await claude?.close();
    removeRun(codexWork?.out);
    removeRun(codexResume?.out);
    removeRun(copilot?.out);
  });

  it('runs every client to the end', () => {
    expect({ codex: codexWork.run.status, copilot: copilot.run.status, copilotErr: copilot.run.stderr.slice(-2000), codexResume: codexResume.run.status }).toEqual({ codex: 0, copilot: 0, copilotErr: '', codexResume: 0 });
  });

  it("runs Copilot's hooks from the repository's .github/hooks in the trusted folder, through git-capsule-hook on PATH", () => {
    expect(existsSync(join(copilot.home, '.copilot', 'hooks', 'git-capsule.json'))).toBe(false);
    const registered = JSON.parse(readFileSync(join(repo, '.github', 'hooks', 'git-capsule.json'), 'utf8'));
    // The shim runs the bundle without the flags after the event: the camelCase payload says Copilot (lib/hooks/pick-host.ts).
    expect(registered.hooks.agentStop[0].bash).toMatch(/^git-capsule-hook stop\b/);
    // The two Copilot capsules were written by the two Copilot sessions' own hooks: each names a session of that client.
    for (const id of [ids.copilot, ids.copilotOther]) {
      const session = /^session_id: "?([^"\n]+)"?$/m.exec(runBundle(['show', id], { cwd: repo, env: { ...process.env, HOME: join(root, 'cli-home') } }).stdout)?.[1] ?? '';
      expect(existsSync(join(copilot.home, '.copilot', 'session-state', session, 'events.jsonl'))).toBe(true);
    }
  });

  it('saves the work of the Copilot session whose model call failed at its sessionEnd (reason error), with no agentStop', () => {
    const session = /^session_id: "?([^"\n]+)"?$/m.exec(runBundle(['show', ids.copilotOther], { cwd: repo, env: { ...process.env, HOME: join(root, 'cli-home') } }).stdout)?.[1] ?? '';
    const hooks = readFileSync(join(copilot.home, '.copilot', 'session-state', session, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((e) => e.type === 'hook.start')
      .map((e) => (e.data.hookType === 'sessionEnd' ? `sessionEnd:${e.data.input.reason}` : e.data.hookType));
    // (errorOccurred fires too, but runs only registered hooks: git-capsule registers none.)
    expect(hooks).toContain('sessionEnd:error');
    expect(hooks).not.toContain('agentStop');
  });

  it('has an autosave of each host on the one memory branch', () => {
    const id = expect.stringMatching(/^[0-9A-Z]{26}$/);
    expect(ids).toEqual({ claude: id, codex: id, copilot: id, copilotOther: id });
  });

  it.each([
    ['Claude Code', 'claude', 'src/parser.txt', 'CLAUDE-FAILURE-MARKER', 'CLAUDE-WORK make the parser stream'],
    ['Codex', 'codex', 'src/gauge.txt', 'CODEX-FAILURE-MARKER', 'CODEX-WORK calibrate the gauge'],
  ] as const)("lists the %s capsule in the Copilot session and, asked for it by id, sends its objective, file and error in the next request", (_host, key, file, error, objective) => {
    const text = loadedInto(lastMessages(copilot.out, 'messages'), ids[key]);
    expect(text).toMatch(new RegExp(`^${ids[key]}\\b`, 'm'));
    expect(text).toContain(objective);
    expect(text).toContain(file);
    expect(text).toContain(error);
  });

  it('lists the Copilot capsule in the running Claude Code session and, asked for it by id, sends its objective, file and error in the next request', () => {
    const text = loadedInto(lastMessages(claude.out, 'messages'), ids.copilot);
    expect(text).toMatch(new RegExp(`^${ids.copilot}\\b`, 'm'));
    expect(text).toContain('COPILOT-WORK make the lexer incremental');
    expect(text).toContain('src/lexer.ts');
    expect(text).toContain('COPILOT-FAILURE-MARKER');
  });

  it("lists the other Copilot session's capsule in a new Codex session and, asked for it by id, sends its objective, file and error in the next request", () => {
    const text = loadedInto(lastMessages(codexResume.out, 'input'), ids.copilotOther);
    expect(text).toMatch(new RegExp(`^${ids.copilotOther}\\b`, 'm'));
    expect(text).toContain('COPILOT-OTHER tune the gizmo');
    expect(text).toContain('src/gizmo.ts');
    expect(text).toContain('GIZMO-FAILURE-MARKER');
  });

  it('logs no hook error', () => {
    let log = '';
    try {
      log = readFileSync(join(repo, '.git', 'capsule', 'errors.log'), 'utf8');
    } catch {
      // none written
    }
    expect(log).toBe('');
  });
});
