import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../lib/local-state/process-liveness';
import { realClientDescribe, resumeBlockIn, StreamHarness } from './support/stream-session';

// The plugin's Stop is registered `"asyncRewake": true` (hooks/hooks.json). In a live session
// (stream-json input, as the interactive client and the supervisor run) the real client runs it
// in the background: the turn ends without waiting for the autosave, the autosave still lands,
// at the hard point the hook's exit 2 wakes the model with the budget message once per window,
// and a /clear sent right after a turn resumes that turn (SessionStart(clear) folds what the
// cleared session's autosave has not: lib/hooks/fold-cleared.ts).
// CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000 puts the hard point at 158808 tokens
// (test/e2e/budget-session.test.ts, where plain `claude -p` runs the same hook in the foreground).
const SCRIPT = {
  rules: [
    { name: 'side-request', when: { hasTools: false }, respond: { text: 'side' } },
    { name: 'rewoken', when: { lastUserText: 'past the hard point' }, respond: { text: 'CAPSULE-WRITTEN, please run /clear', input_tokens: 160500 } },
    { name: 'after-tool', when: { lastIsToolResult: true }, respond: { text: 'done' } },
    { name: 'one-edit', when: { prompt: 'ONE-EDIT' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/one.txt', content: 'one\n' } } } },
    { name: 'two-edit', when: { prompt: 'TWO-EDIT' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/two.txt', content: 'two\n' } } } },
    { name: 'three-edit', when: { prompt: 'THREE-EDIT' }, respond: { tool_use: { name: 'Write', input: { file_path: '{{cwd}}/three.txt', content: 'three\n' } } } },
    { name: 'hard', when: { prompt: 'BUDGET-HARD' }, respond: { text: 'hard', input_tokens: 160000 } },
    { name: 'after', when: { prompt: 'BUDGET-AFTER' }, respond: { text: 'after', input_tokens: 161000 } },
    { name: 'default-text', when: { any: true }, respond: { text: 'ok' } },
  ],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  for (const started = Date.now(); !check(); await sleep(100)) if (Date.now() - started > ms) throw new Error(`waited ${ms} ms for ${what}`);
}

function autosaves(repo: string): string[] {
  try {
    const paths = execFileSync('git', ['ls-tree', '-r', '--name-only', 'refs/heads/capsules'], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter((p) => p.endsWith('/capsule.md'));
    return paths.map((p) => execFileSync('git', ['show', `refs/heads/capsules:${p}`], { cwd: repo, encoding: 'utf8' })).filter((t) => /^trigger:\n\s+- autosave/m.test(t) || /trigger: autosave/.test(t));
  } catch {
    return [];
  }
}

const errorLog = (repo: string) => (existsSync(join(repo, '.git', 'capsule', 'errors.log')) ? readFileSync(join(repo, '.git', 'capsule', 'errors.log'), 'utf8') : '');

realClientDescribe('the Stop autosave in the background (the real client, stream-json input)', () => {
  let h: StreamHarness;
  let debug = '';
  let firstAutosave = '';
  let afterClear = '';
  let atExit: string[] = [];
  beforeAll(async () => {
    h = await StreamHarness.start({ name: 'background-stop', script: SCRIPT, env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000' } });
    const s = h.session({ name: 'bg' });
    await s.send('ONE-EDIT write one');
    await until('the autosave', () => autosaves(h.repo).some((t) => t.includes('one.txt')));
    firstAutosave = autosaves(h.repo).find((t) => t.includes('one.txt'))!;
    const results = () => s.lines.filter((l) => l.type === 'result').length;
    const before = results();
    await s.send('BUDGET-HARD next');
    await until('the budget message to wake the model', () => h.requests().some((r) => r.rule === 'rewoken'));
    // The woken turn ends in a result of its own: wait for it, so the next turn's result is its own.
    await until("the woken turn's result", () => results() === before + 2);
    await s.send('BUDGET-AFTER again');
    // The /clear right after the turn: its Stop is still in the background.
    await s.send('TWO-EDIT write two');
    await s.clear();
    await s.send('AFTER-CLEAR what now?');
    afterClear = resumeBlockIn(h.firstRequestWith('AFTER-CLEAR')?.text ?? '');
    // The last turn's Stop is still in the background when the client is told to exit: the
    // client may cancel it, and SessionEnd must then fold the turn (nothing lost at exit).
    await s.send('THREE-EDIT write three');
    await s.close();
    debug = readFileSync(join(h.out, 'bg.debug.log'), 'utf8');
    atExit = autosaves(h.repo);
  }, 400_000);
  afterAll(async () => h?.close());

  it('runs the Stop hook in the background', () => {
    expect(debug).toMatch(/stop\.js[^\n]*moved to the background|backgrounding[^\n]*stop\.js/);
  });

  it('still lands the autosave with the turn', () => {
    expect(firstAutosave).toContain('one.txt');
  });

  it('resumes the last turn before a /clear sent right after it', () => {
    expect(afterClear).toContain('two.txt');
    expect(afterClear).toContain('one.txt');
  });

  it('loses no turn when the client exits right after it (the last Stop backgrounded, SessionEnd folds what it did not)', () => {
    expect(atExit.some((t) => t.includes('three.txt'))).toBe(true);
  });

  it('wakes the model with the budget message exactly once in the window', () => {
    const woken = h.requests().filter((r) => r.rule === 'rewoken');
    expect(woken).toHaveLength(1);
    expect(woken[0]!.text).toMatch(/\[git-capsule budget\] The context holds about 160k tokens: past the hard point 158.8k/);
    expect(h.requests().some((r) => r.rule === 'after')).toBe(true);
  });

  it('logs no hook errors', () => {
    expect(errorLog(h.repo)).toBe('');
  });
});

// The race made certain: the last turn's Stop starts 4 s late (a `node` first on PATH that waits
// before it runs stop.js), and the SessionEnd of the /clear cannot commit (a `git` first on PATH
// fails fast-import when session-end.js started it, as a SessionEnd the client cuts short). The
// only hook left to fold the turn before the resume is SessionStart(clear) itself.
realClientDescribe('a /clear before the last turn\'s Stop has started (the real client, stream-json input)', () => {
  let h: StreamHarness;
  let afterClear = '';
  let debug = '';
  beforeAll(async () => {
    h = await StreamHarness.start({ name: 'clear-before-stop', script: SCRIPT });
    const bin = join(h.out, 'shim-bin');
    mkdirSync(bin, { recursive: true });
    const realNode = process.execPath;
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const lateFlag = join(h.out, 'stop-late');
    // A late Stop notes its pid (kept across the exec) before it sleeps, so the test can wait for it to end.
    const latePids = join(h.out, 'stop-late.pids');
    writeFileSync(join(bin, 'node'), `#!/bin/sh\ncase "$*" in\n  *stop.js*) [ -e "${lateFlag}" ] && { echo $$ >> "${latePids}"; sleep 4; } ;;\nesac\nexec "${realNode}" "$@"\n`, { mode: 0o755 });
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\ncase " $* " in\n  *" fast-import "*) if tr '\\0' ' ' < /proc/$PPID/cmdline | grep -q session-end.js; then echo "fast-import refused (test shim)" >&2; exit 1; fi ;;\nesac\nexec "${realGit}" "$@"\n`,
      { mode: 0o755 },
    );
    const s = h.session({ name: 'race', env: { PATH: `${bin}:${process.env.PATH}` } });
    await s.send('ONE-EDIT write one');
    await until('the autosave', () => autosaves(h.repo).some((t) => t.includes('one.txt')));
    writeFileSync(lateFlag, '');
    await s.send('TWO-EDIT write two');
    await s.clear();
    await s.send('AFTER-CLEAR what now?');
    afterClear = resumeBlockIn(h.firstRequestWith('AFTER-CLEAR')?.text ?? '');
    // Every late Stop ends before the client exits, finding nothing left to fold: waited for by
    // its pid, not a fixed 6 s a loaded machine can outlast (the last turn's Stop starts just
    // after its result, hence the second's pause first).
    await sleep(1000);
    await until('the late Stops to end', () => !existsSync(latePids) || readFileSync(latePids, 'utf8').split('\n').filter(Boolean).every((pid) => !isProcessAlive(Number(pid))), 60_000);
    await s.close();
    debug = readFileSync(join(h.out, 'race.debug.log'), 'utf8');
  }, 400_000);
  afterAll(async () => h?.close());

  it('runs the Stop hook in the background', () => {
    expect(debug).toMatch(/stop\.js[^\n]*moved to the background|backgrounding[^\n]*stop\.js/);
  });

  it("carries the last turn's state into the first request after the /clear", () => {
    expect(afterClear).toContain('two.txt');
    expect(afterClear).toContain('one.txt');
  });

  it('folded it in SessionStart(clear), not in the failed SessionEnd, and logged no other error', () => {
    const log = errorLog(h.repo);
    expect(log).not.toContain('CLEARED_FOLD_FAILED');
    expect(log).not.toContain('AUTOSAVE_IN_FLIGHT');
    expect(log.split('\n').filter((l) => l !== '' && !l.includes('fast-import refused (test shim)'))).toEqual([]);
  });
});
