import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, type LoggedRequest } from './claude-client';
import { realClientDescribe, resumeBlockIn, StreamHarness } from './support/stream-session';

// `git capsule supervise` driving the real client 2.1.332 headless, offline, against the
// harness's fake API (test/e2e/support/stream-session.ts: temp HOME and repository, a
// loopback-only network namespace). CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000 puts the hard point
// at 158,808 for the hook and the supervisor alike. The scripted turns report growing input
// tokens; at the hard point the Stop hook blocks, and the fake API answers the block with the
// capsule skill's steps: a Bash `git capsule write -` of a capsule with a known id, then
// `capsule written: <id>`.
const CAP1 = '01M8RKTR57WHEBDB6AHBWM0NHG';
const CAP2 = '01M8RKTR57WPQAWVYYCVRSFY43';
const CLI = join(REPO_ROOT, 'dist', 'git-capsule.js');

/** One supervised run: how it ended, what it printed, and the requests the fake API saw. */
interface SupervisedRun {
  repo: string;
  code: number | null;
  stdout: string;
  stderr: string;
  requests: LoggedRequest[];
}

/**
 * Runs `git capsule supervise <flags> -- <the harness's client command>` in the harness's
 * repository, with every prompt on standard input at once (the supervisor holds them and sends
 * each when the client is idle), until the supervisor exits.
 */
function supervisedRun(name: string, script: string, prompts: string[], flags: string[]): SupervisedRun {
  const run: SupervisedRun = { repo: '', code: null, stdout: '', stderr: '', requests: [] };
  let h: StreamHarness | null = null;
  beforeAll(async () => {
    h = await StreamHarness.start({ name, script: join(__dirname, 'fixtures', script), env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000' } });
    run.repo = h.repo;
    // The capsule skill's `git capsule …` finds bin/git-capsule on PATH.
    const env = h.clientEnv({ env: { PATH: `${join(REPO_ROOT, 'bin')}:${process.env.PATH}` } });
    const child = h.spawn(process.execPath, [CLI, 'supervise', ...flags, '--', ...h.clientCommand({ name })], { cwd: h.repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d: Buffer) => (run.stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (run.stderr += d.toString('utf8')));
    child.stdin!.end(prompts.map((p) => `${p}\n`).join(''));
    const timer = setTimeout(() => child.kill('SIGTERM'), 400_000);
    run.code = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    clearTimeout(timer);
    // Side requests (titles) left out: the scripted turns, in order.
    run.requests = h.requests().filter((r) => r.rule !== 'side-request');
  }, 420_000);
  afterAll(async () => {
    await h?.close();
  });
  return run;
}

const streamEvents = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

realClientDescribe('git capsule supervise with the real Claude Code client', () => {
  describe('an agent that writes its capsule at each hard point', () => {
    const prompts = ['TASK-1 start the work', 'TASK-2 go on', 'TASK-3 more', 'TASK-4 and more', 'TASK-5 last'];
    const run = supervisedRun('supervise', 'script-supervise.json', prompts, ['--capsule-wait', '5']);

    it("exits with the client's code after two resets, each with its capsule", () => {
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.stringContaining('the client exited with code 0 after 2 resets') });
      expect(run.stderr).toContain(`reset 1: capsule written: ${CAP1} (an active capsule on the memory branch); sending /clear`);
      expect(run.stderr).toContain(`reset 2: capsule written: ${CAP2} (an active capsule on the memory branch); sending /clear`);
    });

    it('lets each turn finish: the block, the capsule and the literal come before the clear, the continuation after it', () => {
      expect(run.requests.map((r) => r.rule)).toEqual([
        'task-1', 'task-2', 'block-1', 'literal-1', 'continuation',
        'task-3', 'task-4', 'block-2', 'literal-2', 'continuation',
        'task-5',
      ]);
    });

    it("hands back that reset's capsule in the request after each /clear", () => {
      const [first, second] = run.requests.filter((r) => r.rule === 'continuation');
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
      const typed = run.requests.filter((r) => r.rule.startsWith('task-')).map((r) => r.rule);
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
      const continuation = run.requests.find((r) => r.rule === 'continuation')!;
      const block = resumeBlockIn(continuation.text);
      expect(block).toContain('written by: AUTOSAVE');
      expect(block).toContain('NOCAP-TASK-1 build the widget');
      expect(block).toContain('widget.txt');
    });

    it("delivers the user's messages in order, the last after the continuation", () => {
      expect(run.requests.map((r) => r.rule)).toEqual(['task-1', 'task-1-done', 'task-2', 'ignore-block', 'continuation', 'task-3']);
    });
  });
});
