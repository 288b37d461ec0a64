import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClaudeClient, findHarness, loggedRequests, REPO_ROOT, type LoggedRequest } from './claude-client';

// `git capsule supervise` driving the real client 2.1.332 headless, offline, against the
// harness's fake API. CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000 puts the hard point at 158,808 for
// the hook and the supervisor alike. The scripted turns report growing input tokens; at the
// hard point the Stop hook blocks, and the fake API answers the block with the capsule skill's
// steps: a Bash `git capsule write -` of a capsule with a known id, then `capsule written: <id>`.
const CAP1 = '01M8RKTR57WHEBDB6AHBWM0NHG';
const CAP2 = '01M8RKTR57WPQAWVYYCVRSFY43';
const CLI = join(REPO_ROOT, 'dist', 'git-capsule.js');

/** One supervised run: its output folder, how it ended, and what it printed. */
interface SupervisedRun {
  out: string;
  repo: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the fake API, makes a temp HOME and repository the way the harness's run.sh does,
 * and runs `git capsule supervise <flags> -- <client>` in it with `prompts` on standard input,
 * until the supervisor exits.
 */
function supervisedRun(name: string, script: string, prompts: string[], flags: string[]): SupervisedRun {
  const run: SupervisedRun = { out: '', repo: '', code: null, stdout: '', stderr: '' };
  beforeAll(async () => {
    const harness = findHarness();
    if (harness === null) throw new Error('the Claude Code harness (../shared/claude-harness, or CAPSULE_HARNESS_DIR) is missing');
    const bin = ensureClaudeClient();
    run.out = mkdtempSync(join(tmpdir(), `capsule-e2e-${name}-`));
    run.repo = join(run.out, 'repo');
    mkdirSync(join(run.out, 'home'));
    mkdirSync(run.repo);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: run.repo, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'harness@example.invalid');
    git('config', 'user.name', 'harness');
    writeFileSync(join(run.repo, 'README.md'), '# scratch repo\n');
    git('add', '-A');
    git('commit', '-qm', 'init');
    const fake = spawn(process.execPath, [join(harness, 'fake-api.mjs'), '--port', '0', '--port-file', join(run.out, 'port'), '--log', join(run.out, 'requests.jsonl'), '--lifetime', '600', '--script', join(__dirname, 'fixtures', script)], { stdio: 'ignore' });
    try {
      const port = await waitForFile(join(run.out, 'port'));
      const env: NodeJS.ProcessEnv = {
        // The capsule skill's `git capsule …` finds bin/git-capsule on PATH.
        PATH: `${join(REPO_ROOT, 'bin')}:${process.env.PATH}`,
        HOME: join(run.out, 'home'),
        TMPDIR: process.env.TMPDIR,
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
        ANTHROPIC_API_KEY: 'sk-fake',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000',
      };
      for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
      const client = [bin, '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash,Write,Edit,Read', '--plugin-dir', REPO_ROOT, '--debug-file', join(run.out, 'client.debug.log')];
      const child = spawn(process.execPath, [CLI, 'supervise', ...flags, '--', ...client], { cwd: run.repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdout.on('data', (d: Buffer) => (run.stdout += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString('utf8')));
      // Every message at once: the supervisor holds them and sends each when the client is idle.
      child.stdin.end(prompts.map((p) => `${p}\n`).join(''));
      const timer = setTimeout(() => child.kill('SIGTERM'), 400_000);
      run.code = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      clearTimeout(timer);
    } finally {
      fake.kill('SIGTERM');
    }
  }, 420_000);
  afterAll(() => {
    if (process.env.CAPSULE_E2E_KEEP) process.stderr.write(`e2e logs kept in ${run.out}\n`);
    else if (run.out) rmSync(run.out, { recursive: true, force: true });
  });
  return run;
}

async function waitForFile(path: string): Promise<number> {
  for (let i = 0; i < 200; i += 1) {
    if (existsSync(path) && readFileSync(path, 'utf8').trim() !== '') return Number(readFileSync(path, 'utf8'));
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the fake API did not start (no ${path})`);
}

/** The model requests the scripted turns made, side requests (titles) left out. */
const turns = (out: string): LoggedRequest[] => loggedRequests(out).filter((r) => r.rule !== 'side-request');

/** The resume block a SessionStart hook put into a request's (JSON-escaped) messages; '' when none. */
function resumeBlockIn(text: string): string {
  const start = text.indexOf('SessionStart hook additional context: === GIT-CAPSULE RESUME');
  return start === -1 ? '' : text.slice(start, text.indexOf('=== END OF GIT-CAPSULE RESUME ===', start));
}

const streamEvents = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

/** A real-client suite fails under CI=true when the harness is missing, and skips elsewhere. */
const realClient = findHarness() !== null || process.env.CI ? describe : describe.skip;

realClient('git capsule supervise with the real Claude Code client', () => {
  describe('an agent that writes its capsule at each hard point', () => {
    const prompts = ['TASK-1 start the work', 'TASK-2 go on', 'TASK-3 more', 'TASK-4 and more', 'TASK-5 last'];
    const run = supervisedRun('supervise', 'script-supervise.json', prompts, ['--capsule-wait', '5']);

    it("exits with the client's code after two resets, each with its capsule", () => {
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.stringContaining('the client exited with code 0 after 2 resets') });
      expect(run.stderr).toContain(`reset 1: capsule written: ${CAP1} (an active capsule on the memory branch); sending /clear`);
      expect(run.stderr).toContain(`reset 2: capsule written: ${CAP2} (an active capsule on the memory branch); sending /clear`);
    });

    it('lets each turn finish: the block, the capsule and the literal come before the clear, the continuation after it', () => {
      expect(turns(run.out).map((r) => r.rule)).toEqual([
        'task-1', 'task-2', 'block-1', 'literal-1', 'continuation',
        'task-3', 'task-4', 'block-2', 'literal-2', 'continuation',
        'task-5',
      ]);
    });

    it("hands back that reset's capsule in the request after each /clear", () => {
      const [first, second] = turns(run.out).filter((r) => r.rule === 'continuation');
      const one = resumeBlockIn(first!.text);
      const two = resumeBlockIn(second!.text);
      expect(one).toContain(CAP1);
      expect(one).toContain('SUPERVISE-OBJECTIVE-ONE');
      expect(one).toContain('SUPERVISE-NEXT-ONE');
      expect(two).toContain(CAP2);
      expect(two).toContain('SUPERVISE-OBJECTIVE-TWO');
      expect(two).not.toContain('SUPERVISE-OBJECTIVE-ONE');
      // The fresh window starts from the resume, not from the old conversation.
      expect(first!.text).not.toContain('TASK-2 go on');
    });

    it("delivers every one of the user's messages once, in order", () => {
      const typed = turns(run.out).filter((r) => r.rule.startsWith('task-')).map((r) => r.rule);
      expect(typed).toEqual(['task-1', 'task-2', 'task-3', 'task-4', 'task-5']);
    });

    it("relays the client's stream: two clears, every line the client's JSON", () => {
      const events = streamEvents(run.stdout);
      expect(events.filter((e) => e.type === 'conversation_reset')).toHaveLength(2);
      expect(events.filter((e) => e.type === 'result' && e.local_command === 'clear')).toHaveLength(2);
    });

    it('leaves both capsules consumed by the resumes that handed them back, and no hook errors', () => {
      const list = spawnSync(process.execPath, [CLI, 'list', '--json'], { cwd: run.repo, encoding: 'utf8' });
      const byId = new Map((JSON.parse(list.stdout) as Array<{ id: string; status: string }>).map((c) => [c.id, c.status]));
      expect([byId.get(CAP1), byId.get(CAP2)]).toEqual(['resumed', 'resumed']);
      const log = join(run.repo, '.git', 'capsule', 'errors.log');
      expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
    });
  });

  describe('an agent that never writes a capsule', () => {
    const prompts = ['NOCAP-TASK-1 build the widget', 'NOCAP-TASK-2 go on', 'NOCAP-TASK-3 after the reset'];
    const run = supervisedRun('supervise-nocap', 'script-supervise-no-capsule.json', prompts, ['--capsule-wait', '2']);

    it('is cleared once, and the supervisor says the autosave stands', () => {
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/reset 1: no capsule written \(waited \d+(\.\d)? s after the request\); the lineage's autosave stands as the resume; sending \/clear/);
      expect(run.stderr).toContain('the client exited with code 0 after 1 reset');
      expect(streamEvents(run.stdout).filter((e) => e.type === 'conversation_reset')).toHaveLength(1);
    });

    it("resumes from the lineage's autosave after the clear", () => {
      const continuation = turns(run.out).find((r) => r.rule === 'continuation')!;
      const block = resumeBlockIn(continuation.text);
      expect(block).toContain('written by: AUTOSAVE');
      expect(block).toContain('NOCAP-TASK-1 build the widget');
      expect(block).toContain('widget.txt');
    });

    it("delivers the user's messages in order, the last after the continuation", () => {
      expect(turns(run.out).map((r) => r.rule)).toEqual(['task-1', 'task-1-done', 'task-2', 'ignore-block', 'continuation', 'task-3']);
    });
  });
});
