import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSandbox, usageRecord, type BudgetSandbox } from './budget-harness';

const SESSION = '44444444-4444-4444-8444-444444444444';

let box: BudgetSandbox;
beforeEach(() => {
  box = makeSandbox();
});

function payload(over: Record<string, unknown> = {}) {
  return JSON.stringify({
    session_id: SESSION,
    cwd: box.repo,
    model: { id: 'claude-sonnet-4-5', display_name: 'Sonnet 4.5' },
    workspace: { current_dir: box.repo, project_dir: box.repo },
    context_window: { context_window_size: 200_000, current_usage: { input_tokens: 140_000, cache_creation_input_tokens: 3_000, cache_read_input_tokens: 1_000 } },
    ...over,
  });
}

describe('git capsule statusline', () => {
  it("prints fill %, the points and the window's state from the host's JSON", async () => {
    const { code, stdout } = await box.run(['statusline'], { stdin: payload() });
    expect(code).toBe(0);
    expect(stdout).toBe('ctx 144k/200k 72% WARN · warn 142.4k · hard 158.8k · native 167k · budget ok · no active capsule\n');
  });

  it('uses the window the host reports (a [1m] session)', async () => {
    const out = JSON.parse((await box.run(['statusline', '--json'], { stdin: payload({ model: { id: 'claude-sonnet-4-6' }, context_window: { context_window_size: 1_000_000, current_usage: { input_tokens: 5 } } }) })).stdout);
    expect(out).toMatchObject({ fill: 5, native: 967_000, window: 1_000_000 });
  });

  it('falls back to the transcript when current_usage is missing', async () => {
    const path = box.writeTranscript(SESSION, [usageRecord(160_000)]);
    const out = JSON.parse((await box.run(['statusline', '--json'], { stdin: payload({ transcript_path: path, context_window: {} }) })).stdout);
    expect(out).toMatchObject({ fill: 160_000, hard: 158_808 });
  });

  it('shows the state recorded for the window', async () => {
    mkdirSync(join(box.stateDir, 'budget'), { recursive: true });
    writeFileSync(join(box.stateDir, 'budget', `${SESSION}.json`), JSON.stringify({ warnedWindow: `${SESSION}:0`, blockedWindow: null, windowOrdinal: 0 }));
    expect(JSON.parse((await box.run(['statusline', '--json'], { stdin: payload() })).stdout).state).toBe('warned');
  });

  it.each([
    ['empty input', ''],
    ['input that is not JSON', '{oops'],
    ['a JSON array', '[1,2]'],
    ['fields of the wrong types', JSON.stringify({ model: 'x', context_window: { current_usage: { input_tokens: 'many' } }, session_id: {} })],
  ])('still prints a line and exits 0 with %s', async (_name, stdin) => {
    const { code, stdout } = await box.run(['statusline'], { stdin });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ctx .* · no active capsule\n$/);
  });

  it('names the newest active capsule and its age', async () => {
    const write = await box.run(['write', '--objective', 'ship the budget', '--waiting-on', 'nothing', '--next', 'run the tests', '--json'], { env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' } });
    expect(write.code).toBe(0);
    const id = JSON.parse(write.stdout).id as string;
    const out = JSON.parse((await box.run(['statusline', '--json'], { stdin: payload() })).stdout);
    expect(out.capsule).toEqual({ id, age: '0s' });
    expect((await box.run(['statusline'], { stdin: payload() })).stdout).toContain(`· capsule ${id.slice(0, 8)} 0s`);
  });

  it('says the tool is off under CAPSULE_DISABLED', async () => {
    expect((await box.run(['statusline'], { stdin: payload(), env: { CAPSULE_DISABLED: '1' } })).stdout).toBe('capsule: off\n');
  });
});

describe('git capsule statusline and the hooks', () => {
  it('remembers the window the host reported, so a later budget read without it uses it', async () => {
    const path = box.writeTranscript(SESSION, [usageRecord(150_000, 'claude-sonnet-4-6')]);
    // The catalog gives claude-sonnet-4-6 200K; the host says this session has 1M ([1m]).
    expect((await box.run(['statusline'], { stdin: payload({ model: { id: 'claude-sonnet-4-6' }, context_window: { context_window_size: 1_000_000 }, transcript_path: path }) })).code).toBe(0);
    const out = JSON.parse((await box.run(['budget', '--json', '--session', SESSION])).stdout);
    expect(out.points.native).toMatchObject({ tokens: 967_000, modelWindowSource: 'host' });
  });

  it('does not apply a remembered window to another model', async () => {
    box.writeTranscript(SESSION, [usageRecord(150_000, 'claude-sonnet-4-5')]);
    await box.run(['statusline'], { stdin: payload({ model: { id: 'claude-sonnet-4-6' }, context_window: { context_window_size: 1_000_000 } }) });
    const out = JSON.parse((await box.run(['budget', '--json', '--session', SESSION])).stdout);
    expect(out.points.native.tokens).toBe(167_000);
  });
});
