import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realClientDescribe, StreamHarness } from './support/stream-session';

// The plugin's Stop is registered `"asyncRewake": true` (hooks/hooks.json). In a live session
// (stream-json input, as the interactive client and the supervisor run) the real client runs it
// in the background: the turn ends without waiting for the autosave, the autosave still lands,
// and at the hard point the hook's exit 2 wakes the model with the budget message, once per
// window. CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000 puts the hard point at 158808 tokens
// (test/e2e/budget-session.test.ts, where plain `claude -p` runs the same hook in the foreground).
const SCRIPT = {
  rules: [
    { name: 'side-request', when: { hasTools: false }, respond: { text: 'side' } },
    { name: 'rewoken', when: { lastUserText: 'past the hard point' }, respond: { text: 'CAPSULE-WRITTEN, please run /clear', input_tokens: 160500 } },
    { name: 'after-tool', when: { lastIsToolResult: true }, respond: { text: 'done' } },
    { name: 'one-edit', when: { prompt: 'ONE-EDIT' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/one.txt', content: 'one\n' } } } },
    { name: 'two-edit', when: { prompt: 'TWO-EDIT' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/two.txt', content: 'two\n' } } } },
    { name: 'hard', when: { prompt: 'BUDGET-HARD' }, respond: { text: 'hard', input_tokens: 160000 } },
    { name: 'after', when: { prompt: 'BUDGET-AFTER' }, respond: { text: 'after', input_tokens: 161000 } },
    { name: 'default-text', when: { any: true }, respond: { text: 'ok' } },
  ],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  for (const started = Date.now(); !check(); await sleep(100)) if (Date.now() - started > ms) throw new Error(`waited ${ms} ms for ${what}`);
}

realClientDescribe('the Stop autosave in the background (the real client, stream-json input)', () => {
  let h: StreamHarness;
  let debug = '';
  let autosaveFiles: string[] = [];
  beforeAll(async () => {
    h = await StreamHarness.start({ name: 'background-stop', script: SCRIPT, env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000' } });
    const s = h.session({ name: 'bg' });
    const capsules = () => {
      try {
        return execFileSync('git', ['ls-tree', '-r', '--name-only', 'refs/heads/capsules'], { cwd: h.repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter((p) => p.endsWith('/capsule.md'));
      } catch {
        return [];
      }
    };
    await s.send('ONE-EDIT write one');
    await until('the autosave', () => capsules().length === 1);
    autosaveFiles = [execFileSync('git', ['show', `refs/heads/capsules:${capsules()[0]}`], { cwd: h.repo, encoding: 'utf8' })];
    await s.send('BUDGET-HARD next');
    await until('the budget message to wake the model', () => h.requests().some((r) => r.rule === 'rewoken'));
    await s.send('BUDGET-AFTER again');
    // The last turn's Stop is still in the background when the client is told to exit: the
    // client may cancel it, and SessionEnd must then fold the turn (nothing lost at exit).
    await s.send('TWO-EDIT write two');
    await s.close();
    debug = readFileSync(join(h.out, 'bg.debug.log'), 'utf8');
    autosaveFiles.push(execFileSync('git', ['show', `refs/heads/capsules:${capsules()[0]}`], { cwd: h.repo, encoding: 'utf8' }));
  }, 400_000);
  afterAll(async () => h?.close());

  it('runs the Stop hook in the background', () => {
    expect(debug).toMatch(/stop\.js[^\n]*moved to the background|backgrounding[^\n]*stop\.js/);
  });

  it('still lands the autosave with the turn', () => {
    expect(autosaveFiles[0]).toContain('one.txt');
  });

  it('loses no turn when the client exits right after it (the last Stop backgrounded, SessionEnd folds what it did not)', () => {
    expect(autosaveFiles[1]).toContain('one.txt');
    expect(autosaveFiles[1]).toContain('two.txt');
  });

  it('wakes the model with the budget message exactly once in the window', () => {
    const woken = h.requests().filter((r) => r.rule === 'rewoken');
    expect(woken).toHaveLength(1);
    expect(woken[0]!.text).toMatch(/\[git-capsule budget\] The context holds about 160k tokens: past the hard point 158.8k/);
    expect(h.requests().some((r) => r.rule === 'after')).toBe(true);
  });

  it('logs no hook errors', () => {
    const log = join(h.repo, '.git', 'capsule', 'errors.log');
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
  });
});
