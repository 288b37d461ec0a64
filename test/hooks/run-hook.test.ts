import { CapsuleError } from '../../lib/errors/capsule-error';
import type { HookAnswer } from '../../lib/hosts/hook-answer';
import { runHook, type HookIO, type HookSpec } from '../../lib/hooks/run-hook';
import { makeTempDir, makeTempRepo, payload, readErrorLog, type TempRepo } from './hook-fixtures';

const NOW = new Date('2026-11-29T21:00:00Z');

function io(repo: TempRepo, stdin: string, extra: Partial<HookIO> = {}): HookIO {
  return { readStdin: async () => stdin, env: repo.env, now: () => NOW, cwd: repo.dir, ...extra };
}

function spec(handle: () => Promise<HookAnswer | void>): HookSpec<'SessionStart'> & { calls: number } {
  const s = { event: 'SessionStart' as const, calls: 0, handle: async () => (s.calls++, handle()) };
  return s;
}

describe('runHook', () => {
  let repo: TempRepo;
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => repo.cleanup());

  it('answers additionalContext through the SessionStart envelope', async () => {
    const s = spec(async () => ({ additionalContext: 'CTX' }));
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir }))));
    expect(JSON.parse(out.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'CTX' } });
    expect(out.failCode).toBeUndefined();
  });

  it('passes through untouched when CAPSULE_DISABLED is present, even empty', async () => {
    const s = spec(async () => ({ additionalContext: 'CTX' }));
    let read = false;
    const out = await runHook(s, io(repo, '', { env: { ...repo.env, CAPSULE_DISABLED: '' }, readStdin: async () => ((read = true), '') }));
    expect(out).toEqual({ stdout: '' });
    expect(read).toBe(false);
    expect(s.calls).toBe(0);
  });

  it('fails open with a systemMessage and a coded log line when stdin is not JSON', async () => {
    const s = spec(async () => undefined);
    const out = await runHook(s, io(repo, 'not json'));
    expect(out.failCode).toBe('HOOK_INPUT_NOT_JSON');
    expect(Object.keys(JSON.parse(out.stdout))).toEqual(['systemMessage']);
    expect(out.stdout.trim().split('\n')).toHaveLength(1);
    expect(readErrorLog(repo.stateDir)[0]).toMatch(/^HOOK_INPUT_NOT_JSON /);
    expect(s.calls).toBe(0);
  });

  it('fails open with HOOK_HOST_UNKNOWN, reading nothing, when --host names no known host', async () => {
    const s = spec(async () => ({ additionalContext: 'CTX' }));
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir })), { argv: ['--host', 'cursor'] }));
    expect(out.failCode).toBe('HOOK_HOST_UNKNOWN');
    expect(Object.keys(JSON.parse(out.stdout))).toEqual(['systemMessage']);
    expect(s.calls).toBe(0);
  });

  it('hands the handler the Claude Code adapter for a payload of its own registration', async () => {
    let host: string | undefined;
    const s: HookSpec<'SessionStart'> = { event: 'SessionStart', handle: async (_input, ctx) => void (host = ctx.host.name) };
    await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir }))));
    expect(host).toBe('claude');
  });

  it('fails open with HOOK_INPUT_INVALID when a used field has the wrong type', async () => {
    const s = spec(async () => undefined);
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir, source: ['clear'] }))));
    expect(out.failCode).toBe('HOOK_INPUT_INVALID');
    expect(readErrorLog(repo.stateDir)[0]).toMatch(/^HOOK_INPUT_INVALID .*source/);
    expect(s.calls).toBe(0);
  });

  it('is silent outside a git repository and never calls the handler', async () => {
    const outside = makeTempDir();
    try {
      const s = spec(async () => ({ additionalContext: 'CTX' }));
      const env = { PATH: process.env.PATH };
      const out = await runHook(s, { readStdin: async () => JSON.stringify(payload('SessionStart', { cwd: outside.dir })), env, now: () => NOW, cwd: outside.dir });
      expect(out).toEqual({ stdout: '' });
      expect(s.calls).toBe(0);
    } finally {
      outside.cleanup();
    }
  });

  it('prefers CLAUDE_PROJECT_DIR over the payload cwd to find the repository', async () => {
    const s = spec(async () => ({ additionalContext: 'CTX' }));
    const env = { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir };
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: '/' })), { env }));
    expect(out.stdout).toContain('CTX');
  });

  it('fails open with HOOK_TIMEOUT when the handler outlives its budget', async () => {
    const s = spec(() => new Promise<void>(() => undefined));
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir })), { budgetMs: 20 }));
    expect(out.failCode).toBe('HOOK_TIMEOUT');
    expect(readErrorLog(repo.stateDir)[0]).toMatch(/^HOOK_TIMEOUT /);
  });

  it('counts the budget from when the host started the process, not from when the runner was called', async () => {
    // 1 s of budget, 950 ms of it spent before the runner ran (a slow node start): a handler
    // that needs 400 ms more is given up on, as the host's own timeout would cut it.
    const s = spec(() => new Promise<void>((resolve) => setTimeout(resolve, 400)));
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir })), { budgetMs: 1000, startedAt: Date.now() - 950 }));
    expect(out.failCode).toBe('HOOK_TIMEOUT');
  });

  it('sets no timer for a run that never waits on I/O (the first one costs ~1 ms of a fresh node, before every prompt)', async () => {
    const timers = jest.spyOn(global, 'setTimeout');
    try {
      const out = await runHook(spec(async () => ({ additionalContext: 'CTX' })), io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir }))));
      expect(out.stdout).toContain('CTX');
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
  });

  it('gives a run that waits on I/O only what is left of its budget, counted from its start', async () => {
    const timers = jest.spyOn(global, 'setTimeout');
    try {
      const s = spec(async () => {
        const start = Date.now();
        while (Date.now() - start < 30); // synchronous work before the first wait
        await new Promise((resolve) => setImmediate(resolve));
        return { additionalContext: 'CTX' };
      });
      const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir })), { budgetMs: 1000 }));
      expect(out.stdout).toContain('CTX');
      expect(timers).toHaveBeenCalledTimes(1);
      expect(timers.mock.calls[0]![1]).toBeLessThanOrEqual(970);
    } finally {
      timers.mockRestore();
    }
  });

  it('logs the CapsuleError code of a failing handler and still answers', async () => {
    const s = spec(async () => {
      throw new CapsuleError('MEMORY_ROOT', 'MEMORY-ROOT: bad ref');
    });
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir }))));
    expect(out.failCode).toBe('MEMORY_ROOT');
    expect(JSON.parse(out.stdout).systemMessage).toContain('MEMORY_ROOT');
    expect(readErrorLog(repo.stateDir)[0]).toMatch(/^MEMORY_ROOT /);
  });

  it('logs HOOK_INTERNAL for an error that is not a CapsuleError', async () => {
    const s = spec(async () => {
      throw new TypeError('boom\nsecond line');
    });
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir }))));
    expect(out.failCode).toBe('HOOK_INTERNAL');
    expect(readErrorLog(repo.stateDir)).toHaveLength(1);
  });

  it('fails open loudly when git refuses a repository whose .git was found (corrupt)', async () => {
    const s = spec(async () => {
      throw new CapsuleError('NOT_A_REPO', 'not a repository');
    });
    const out = await runHook(s, io(repo, JSON.stringify(payload('SessionStart', { cwd: repo.dir }))));
    expect(out.failCode).toBe('NOT_A_REPO');
    expect(readErrorLog(repo.stateDir)[0]).toMatch(/^NOT_A_REPO /);
  });
});
