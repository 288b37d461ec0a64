import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { makePreCompactHook } from '../../lib/hooks/pre-compact';
import { makeSessionEndHook } from '../../lib/hooks/session-end';
import { makeSessionStartHook } from '../../lib/hooks/session-start';
import { makeStopHook } from '../../lib/hooks/stop';
import { userPromptSubmitHook } from '../../lib/hooks/user-prompt-submit';
import { writeCap } from '../../lib/local-state/budget-state';
import { appendErrorLog } from '../../lib/local-state/error-log';
import { ERROR_LOG_MAX_BYTES, pruneLocalState, STATE_FILES, type StateFile } from '../../lib/local-state/state-files';
import { makeTempRepo, runHookIn, turnRecords } from '../hooks/hook-fixtures';

const NOW = new Date('2026-11-29T21:00:00Z');
const LONG_AGO = new Date('2026-09-01T00:00:00Z');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function declared(rel: string): boolean {
  return (Object.values(STATE_FILES) as StateFile[]).some((f) => (f.path.endsWith('/') ? rel.startsWith(f.path) && !rel.slice(f.path.length).includes('/') : rel === f.path));
}

describe('STATE_FILES', () => {
  it('declares every file the hooks and the budget cap leave in the runtime dir', async () => {
    const repo = makeTempRepo();
    try {
      const transcript = join(repo.dir, '..', 'transcript.jsonl');
      writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, prompt: 'build the widget', write: `${repo.dir}/src/w.ts`, failing: 'npm test' }));
      const fields = { transcript_path: transcript };
      await runHookIn(repo, makeSessionStartHook(defaultDeps), { ...fields, source: 'startup' }, NOW);
      await runHookIn(repo, userPromptSubmitHook, fields, NOW);
      await runHookIn(repo, makeStopHook(defaultDeps), fields, NOW);
      await runHookIn(repo, makePreCompactHook(defaultDeps), { ...fields, trigger: 'auto' }, NOW);
      await runHookIn(repo, makeSessionStartHook(defaultDeps), { ...fields, source: 'compact', session_id: 'after-compact' }, NOW);
      await runHookIn(repo, makeSessionStartHook(defaultDeps), { ...fields, source: 'clear', session_id: 'after-clear' }, NOW);
      writeCap(repo.stateDir, 120_000, NOW, 'after-clear');
      await runHookIn(repo, makeSessionEndHook(defaultDeps), fields, NOW);
      const files = walk(repo.stateDir).map((p) => relative(repo.stateDir, p));
      expect(files.length).toBeGreaterThan(3);
      expect(files.filter((f) => !declared(f))).toEqual([]);
    } finally {
      repo.cleanup();
    }
  });
});

describe('pruneLocalState', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'capsule-prune-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const put = (rel: string, at: Date) => {
    const path = join(dir, rel);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '{}');
    utimesSync(path, at, at);
    return path;
  };

  it('removes per-session files untouched past their age and keeps recent ones', () => {
    const old = put('sessions/old.json', LONG_AGO);
    const recent = put('sessions/new.json', NOW);
    const oldBudget = put('budget/old.json', LONG_AGO);
    expect(pruneLocalState(dir, NOW)).toBe(2);
    expect([existsSync(old), existsSync(recent), existsSync(oldBudget)]).toEqual([false, true, false]);
  });

  it('keeps the budget cap whatever its age', () => {
    const cap = put('budget/cap.json', LONG_AGO);
    pruneLocalState(dir, NOW);
    expect(existsSync(cap)).toBe(true);
  });

  it('removes temp files that killed writers left, after an hour', () => {
    const stale = put('sessions/s.json.123.tmp', new Date(NOW.getTime() - 2 * 3600 * 1000));
    const fresh = put('boot-receipt.json.456.tmp', NOW);
    const staleTop = put('boot-receipt.json.789.tmp', new Date(NOW.getTime() - 2 * 3600 * 1000));
    pruneLocalState(dir, NOW);
    expect([existsSync(stale), existsSync(fresh), existsSync(staleTop)]).toEqual([false, true, false]);
  });

  it('trims the error log to its newest lines once it passes its bound', () => {
    const line = 'x'.repeat(200);
    writeFileSync(join(dir, 'errors.log'), `${`HOOK_INTERNAL ${line}\n`.repeat(Math.ceil(ERROR_LOG_MAX_BYTES / 200) + 100)}`);
    appendErrorLog(dir, { code: 'HOOK_TIMEOUT', now: NOW, event: 'Stop', message: 'the newest line' });
    pruneLocalState(dir, NOW);
    const text = readFileSync(join(dir, 'errors.log'), 'utf8');
    expect(text.length).toBeLessThan(ERROR_LOG_MAX_BYTES / 2);
    expect(text.startsWith('HOOK_INTERNAL ')).toBe(true);
    expect(text.trimEnd().endsWith('the newest line')).toBe(true);
  });

  it('does nothing to a runtime dir that does not exist', () => {
    expect(pruneLocalState(join(dir, 'none'), NOW)).toBe(0);
  });
});
