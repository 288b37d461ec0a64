import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCapsule } from '../../lib/capsule/parse';
import { autosavesInFlight } from '../../lib/local-state/autosave-in-flight';
import { TranscriptBuilder } from '../hosts/claude/transcript-builder';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';
import { hookTimedOut } from '../support/hook-timeout';

// A Stop hook running in the background can be killed by the host at any point (a `claude -p`
// that exits cancels it). Here it is killed deterministically inside its commit: a `git` shim
// first on PATH holds `git fast-import` (before it runs, or after it moved the ref) until the
// test SIGKILLs the hook's process group. Nothing may be lost: the in-flight marker is visible
// while it commits and stale once the hook is gone (no one waits for it), the transcript cursor
// is where the last finished fold left it, and the next hook (SessionEnd) folds the turn.
const DIST = join(__dirname, '..', '..', 'dist', 'hooks');
const SESSION = 'kill-mid-commit';
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

function shim(dir: string, flag: string, when: 'before' | 'after'): string {
  const bin = join(dir, 'shim-bin');
  mkdirSync(bin, { recursive: true });
  const hold = `touch "${flag}"; sleep 60`;
  writeFileSync(
    join(bin, 'git'),
    `#!/bin/sh
case " $* " in
  *" fast-import "*) ${when === 'before' ? `${hold}; exec "${REAL_GIT}" "$@"` : `"${REAL_GIT}" "$@"; rc=$?; ${hold}; exit $rc`} ;;
esac
exec "${REAL_GIT}" "$@"
`,
    { mode: 0o755 },
  );
  return bin;
}

type HookRun = { code: number | null; signal: NodeJS.Signals | null; stdout: string };
type HookOpts = { path?: string; killWhen?: string; onHold?: () => void; env?: NodeJS.ProcessEnv };

/**
 * Runs a built hook in its own process group; with `killWhen`, SIGKILLs the group once that file
 * exists. Once more after a HOOK_TIMEOUT (test/support/hook-timeout.ts): SessionEnd reached
 * fast-import after ~0.4 s of its 1 s at load 4, so a loaded machine can pass the budget before
 * the fold (a timed-out hook ends its gits as a kill would).
 */
async function runHook(repo: TestRepo, event: string, input: object, opts: HookOpts = {}): Promise<HookRun> {
  const r = await runHookOnce(repo, event, input, opts);
  return hookTimedOut(r.code, r.stdout) ? runHookOnce(repo, event, input, opts) : r;
}

function runHookOnce(repo: TestRepo, event: string, input: object, opts: HookOpts): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const base = { ...repo.env, ...opts.env };
    const env = opts.path ? { ...base, PATH: `${opts.path}:${base.PATH ?? process.env.PATH}` } : base;
    const child = spawn(process.execPath, [join(DIST, `${event}.js`)], { cwd: repo.dir, env, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    child.stdin.end(JSON.stringify(input));
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    let poll: NodeJS.Timeout | undefined;
    if (opts.killWhen) {
      const started = Date.now();
      poll = setInterval(() => {
        if (existsSync(opts.killWhen!)) {
          clearInterval(poll);
          try {
            opts.onHold?.();
          } finally {
            process.kill(-(child.pid as number), 'SIGKILL'); // the group this test started, nothing else
          }
        } else if (Date.now() - started > 30_000) {
          clearInterval(poll);
          process.kill(-(child.pid as number), 'SIGKILL');
          reject(new Error('the hook never reached git fast-import'));
        }
      }, 10);
    }
    child.on('close', (code, signal) => {
      clearInterval(poll);
      resolve({ code, signal, stdout });
    });
  });
}

describe('a Stop hook killed inside its commit', () => {
  it.each(['before', 'after'] as const)('loses no turn when killed %s git fast-import wrote the commit', async (when) => {
    if (!existsSync(join(DIST, 'stop.js'))) throw new Error(`build first: ${DIST}/stop.js is missing (npm test builds it)`);
    const repo = makeTestRepo();
    try {
      const transcript = join(repo.stateDir, '..', 'session.jsonl');
      const t = new TranscriptBuilder(SESSION, repo.dir);
      const input = (event: string) => ({ session_id: SESSION, transcript_path: transcript, cwd: repo.dir, hook_event_name: event, stop_hook_active: false, reason: 'other' });
      const turn = (i: number) => {
        const before = t.rows.length;
        if (i === 0) t.user('Refactor the parser module');
        t.toolUse(`toolu_${i}`, 'Edit', { file_path: `${repo.dir}/src/turn-${i}.ts`, old_string: 'a', new_string: 'b' });
        t.toolResult(`toolu_${i}`, 'The file has been updated.');
        appendFileSync(transcript, t.rows.slice(before).map((r) => JSON.stringify(r)).join('\n') + '\n');
      };
      const statePath = join(repo.stateDir, 'sessions', `${SESSION}.json`);
      const cursor = () => JSON.parse(readFileSync(statePath, 'utf8')).cursor;
      const tip = () => repo.git(['rev-parse', 'refs/heads/capsules']);

      turn(0);
      expect((await runHook(repo, 'stop', input('Stop'))).code).toBe(0);
      const cursorAfterTurn0 = cursor();
      const tipAfterTurn0 = tip();

      turn(1);
      const flag = join(repo.stateDir, '..', `held-${when}`);
      let markedWhileHeld: string[] = [];
      const killed = await runHook(repo, 'stop', input('Stop'), {
        path: shim(join(repo.stateDir, '..'), flag, when),
        killWhen: flag,
        onHold: () => (markedWhileHeld = autosavesInFlight(repo.stateDir, new Date(), { sessionId: SESSION }).map((m) => m.sessionId)),
      });
      expect(killed.signal).toBe('SIGKILL');
      // Visible while it committed; stale once its process is gone: nobody waits for a dead hook.
      expect(markedWhileHeld).toEqual([SESSION]);
      expect(existsSync(join(repo.stateDir, 'in-flight', `${SESSION}.json`))).toBe(true);
      expect(autosavesInFlight(repo.stateDir, new Date(), { sessionId: SESSION })).toEqual([]);
      // The cursor is saved only after the commit: the killed run moved nothing.
      expect(cursor()).toEqual(cursorAfterTurn0);
      if (when === 'before') expect(tip()).toBe(tipAfterTurn0);
      else expect(tip()).not.toBe(tipAfterTurn0);

      // The next hook folds the killed turn again, once, into the session's one autosave.
      const end = await runHook(repo, 'session-end', input('SessionEnd'));
      expect(end.code).toBe(0);
      const autosaves = repo
        .git(['ls-tree', '-r', '--name-only', 'refs/heads/capsules'])
        .split('\n')
        .filter((p) => p.endsWith('/capsule.md'))
        .map((p) => parseCapsule(repo.git(['show', `refs/heads/capsules:${p}`])).doc!)
        .filter((d) => d.frontmatter.trigger === 'autosave');
      expect(autosaves).toHaveLength(1);
      const files = autosaves[0]!.sections.files ?? [];
      expect(files.filter((f) => f.includes('turn-'))).toEqual(['modified: src/turn-0.ts', 'modified: src/turn-1.ts']);
      expect(cursor()).not.toEqual(cursorAfterTurn0);
      const log = existsSync(join(repo.stateDir, 'errors.log')) ? readFileSync(join(repo.stateDir, 'errors.log'), 'utf8') : '';
      expect(log).not.toContain('AUTOSAVE_IN_FLIGHT');
      expect(() => repo.git(['fsck', '--no-progress'])).not.toThrow();
    } finally {
      repo.cleanup();
    }
  }, 90_000);

  // In a live session the /clear can follow a turn at once: the client may cut SessionEnd short
  // at its timeout as well. Here both die inside their commit; SessionStart(clear) must still
  // resume the killed turn (it folds what the cleared session's cursor has not reached).
  it('resumes the killed turn after a /clear whose SessionEnd was killed inside its commit too', async () => {
    if (!existsSync(join(DIST, 'stop.js'))) throw new Error(`build first: ${DIST}/stop.js is missing (npm test builds it)`);
    const repo = makeTestRepo();
    const client = spawn('sleep', ['120'], { stdio: 'ignore' }); // the client process CLAUDE_PID names
    try {
      const env = { CLAUDE_PID: String(client.pid) };
      const transcript = join(repo.stateDir, '..', 'session.jsonl');
      const t = new TranscriptBuilder(SESSION, repo.dir);
      const input = (event: string, extra: object = {}) => ({ session_id: SESSION, transcript_path: transcript, cwd: repo.dir, hook_event_name: event, stop_hook_active: false, ...extra });
      const turn = (i: number, prompt: string) => {
        const before = t.rows.length;
        t.user(prompt);
        t.toolUse(`toolu_${i}`, 'Edit', { file_path: `${repo.dir}/src/turn-${i}.ts`, old_string: 'a', new_string: 'b' });
        t.toolResult(`toolu_${i}`, 'The file has been updated.');
        appendFileSync(transcript, t.rows.slice(before).map((r) => JSON.stringify(r)).join('\n') + '\n');
      };
      turn(0, 'Refactor the parser module');
      expect((await runHook(repo, 'stop', input('Stop'), { env })).code).toBe(0);
      turn(1, 'KILLED-TURN move the lexer into its own file');
      for (const [event, extra] of [['stop', {}], ['session-end', { reason: 'clear' }]] as const) {
        const flag = join(repo.stateDir, '..', `held-${event}`);
        const killed = await runHook(repo, event, input(event === 'stop' ? 'Stop' : 'SessionEnd', extra), { env, path: shim(join(repo.stateDir, '..'), flag, 'before'), killWhen: flag });
        expect(killed.signal).toBe('SIGKILL');
      }
      const next = join(repo.stateDir, '..', 'next.jsonl');
      writeFileSync(next, '');
      const start = await runHook(repo, 'session-start', { session_id: 'after-clear', transcript_path: next, cwd: repo.dir, hook_event_name: 'SessionStart', source: 'clear' }, { env });
      expect(start.code).toBe(0);
      const text = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
      expect(text).toContain('KILLED-TURN move the lexer into its own file');
      expect(text).toContain('src/turn-1.ts');
      expect(() => repo.git(['fsck', '--no-progress'])).not.toThrow();
    } finally {
      client.kill('SIGKILL');
      repo.cleanup();
    }
  }, 90_000);
});
