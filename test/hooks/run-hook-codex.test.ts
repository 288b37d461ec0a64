import type { HookAnswer } from '../../lib/hosts/hook-answer';
import type { HookEventName } from '../../lib/hosts/host';
import { runHook, type HookSpec } from '../../lib/hooks/run-hook';
import { codexPayload, schemaErrors } from '../hosts/codex/codex-fixtures';
import { makeTempRepo, readErrorLog, type TempRepo } from './hook-fixtures';

const NOW = new Date('2026-12-01T09:00:00Z');

function run<E extends HookEventName>(repo: TempRepo, event: E, raw: Record<string, unknown>, handle: HookSpec<E>['handle'], argv = ['--host', 'codex']) {
  const spec: HookSpec<E> = { event, handle };
  return runHook(spec, { readStdin: async () => JSON.stringify({ ...raw, cwd: repo.dir }), env: repo.env, now: () => NOW, cwd: repo.dir, argv });
}

describe('runHook under the Codex CLI', () => {
  let repo: TempRepo;
  beforeEach(() => (repo = makeTempRepo()));
  afterEach(() => repo.cleanup());
  const block = async (): Promise<HookAnswer> => ({ block: { reason: 'write your capsule' } });

  it('lets a Stop block through once, when Stop is not re-running after a block', async () => {
    const out = await run(repo, 'Stop', codexPayload('Stop'), block);
    expect(JSON.parse(out.stdout)).toEqual({ decision: 'block', reason: 'write your capsule' });
  });

  it('drops a Stop block while stop_hook_active, since Codex would re-run Stop for ever', async () => {
    const out = await run(repo, 'Stop', codexPayload('Stop.stop_hook_active'), block);
    expect(out.stdout).toBe('');
    expect(readErrorLog(repo.stateDir)[0]).toMatch(/^STOP_BLOCK_SUPPRESSED /);
  });

  it('picks the Codex adapter from the rollout name alone when no --host is given', async () => {
    let host: string | undefined;
    await run(repo, 'SessionStart', codexPayload('SessionStart.startup'), async (_i, ctx) => void (host = ctx.host.name), []);
    expect(host).toBe('codex');
  });

  it("does nothing, silently, for a sub-agent's prompt", async () => {
    let called = false;
    const out = await run(repo, 'UserPromptSubmit', codexPayload('UserPromptSubmit.subagent'), async () => ((called = true), { additionalContext: 'x' }));
    expect(out).toEqual({ stdout: '' });
    expect(called).toBe(false);
  });

  it("answers nothing to PostCompact, an event git-capsule does not register on Codex (its payload has no summary)", async () => {
    let called = false;
    const out = await run(repo, 'PostCompact', codexPayload('PostCompact.auto'), async () => ((called = true), { systemMessage: 'x' }));
    expect(out).toEqual({ stdout: '' });
    expect(called).toBe(false);
    expect(readErrorLog(repo.stateDir)).toEqual([]);
  });

  it.each(['SessionStart.startup', 'Stop', 'PreCompact.auto', 'UserPromptSubmit'])('fails open on %s with a systemMessage its output schema accepts', async (name) => {
    const event = name.split('.')[0] as HookEventName;
    const out = await run(repo, event, codexPayload(name), async () => {
      throw new Error('boom');
    });
    expect(out.failCode).toBe('HOOK_INTERNAL');
    expect(schemaErrors(event, 'output', JSON.parse(out.stdout))).toBeNull();
  });

  it('fails open on SessionEnd with nothing on stdout (it has no output schema) and the log line', async () => {
    const out = await run(repo, 'SessionEnd', codexPayload('SessionEnd.other'), async () => {
      throw new Error('boom');
    });
    expect(out).toMatchObject({ stdout: '', failCode: 'HOOK_INTERNAL' });
    expect(readErrorLog(repo.stateDir)[0]).toMatch(/^HOOK_INTERNAL /);
  });

  it('checks the payload with the Codex rules: a missing session_id is refused', async () => {
    const out = await run(repo, 'Stop', codexPayload('Stop', { session_id: undefined }), async () => undefined);
    expect(out.failCode).toBe('HOOK_INPUT_INVALID');
  });
});
