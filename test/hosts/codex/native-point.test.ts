import { readCodexConfigText, readConfigOverride } from '../../../lib/hosts/codex/codex-config';
import { resolveCodexNativePoint, type CodexPointInputs } from '../../../lib/hosts/codex/native-point';
import { recordCodexFill } from '../../../lib/hosts/codex/rollout-fill';
import { rolloutRecords } from './codex-fixtures';

const none: CodexPointInputs = { argv: null, projectConfig: null, userConfig: null, window: 258_400 };
const tokens = (inputs: Partial<CodexPointInputs>) => {
  const r = resolveCodexNativePoint({ ...none, ...inputs });
  return r.status === 'ok' ? [r.source, r.point.tokens] : [r.status];
};

describe('resolveCodexNativePoint', () => {
  it('derives 90 % of the raw window from the reported one when nothing is configured (measured: 244,800 for 258,400)', () => {
    expect(tokens({})).toEqual(['default', 244_800]);
  });

  it("takes the client's own -c override over every file", () => {
    const argv = ['codex', 'exec', '-c', 'model_auto_compact_token_limit=20000', 'hi'];
    expect(tokens({ argv, projectConfig: 'model_auto_compact_token_limit = 50000', userConfig: 'model_auto_compact_token_limit = 60000' })).toEqual(['cli', 20_000]);
    expect(tokens({ argv: ['codex', '--config=model_auto_compact_token_limit=30_000'] })).toEqual(['cli', 30_000]);
  });

  it('takes the selected profile, then the project file, then the user file', () => {
    const user = 'profile = "fast"\nmodel_auto_compact_token_limit = 60000\n[profiles.fast]\nmodel_auto_compact_token_limit = 40000\n';
    expect(tokens({ userConfig: user, projectConfig: 'model_auto_compact_token_limit = 50000' })).toEqual(['profile', 40_000]);
    expect(tokens({ userConfig: user.replace('profile = "fast"\n', ''), projectConfig: 'model_auto_compact_token_limit = 50000' })).toEqual(['project', 50_000]);
    expect(tokens({ userConfig: user.replace('profile = "fast"\n', '') })).toEqual(['user', 60_000]);
    expect(tokens({ userConfig: user.replace('profile = "fast"\n', ''), argv: ['codex', '-p', 'fast'] })).toEqual(['profile', 40_000]);
  });

  it('has no point when nothing is configured and no token_count named the window yet', () => {
    expect(tokens({ window: null })).toEqual(['unresolvable']);
  });
});

describe('readCodexConfigText', () => {
  it('reads the budget keys at the top level and per profile, and skips every other table', () => {
    const text = [
      'model = "gpt-5.5"  # the model',
      'model_auto_compact_token_limit = 120_000',
      '[model_providers.fake]',
      'model_auto_compact_token_limit = 1',
      '[profiles."deep work"]',
      "model_context_window = 400000",
      '[otel]',
      'exporter = "none"',
    ].join('\n');
    expect(readCodexConfigText(text)).toEqual({ autoCompactLimit: 120_000, profiles: { 'deep work': { contextWindow: 400_000 } } });
  });

  it('ignores a value that is not a whole number, and a # inside a string', () => {
    expect(readCodexConfigText('model_auto_compact_token_limit = "many"\nprofile = "a#b"')).toEqual({ profile: 'a#b', profiles: {} });
  });
});

describe('readConfigOverride', () => {
  it.each([
    ['model_auto_compact_token_limit=20000', { key: 'model_auto_compact_token_limit', value: 20_000 }],
    ['profile="fast"', { key: 'profile', value: 'fast' }],
    ['features.plugins=false', null],
    ['nonsense', null],
  ])('reads %j', (text, expected) => {
    expect(readConfigOverride(text)).toEqual(expected);
  });
});

describe('recordCodexFill', () => {
  it("reads the real rollout's last token_count as the tokens in the context window", () => {
    let last: ReturnType<typeof recordCodexFill>;
    for (const r of rolloutRecords()) {
      const said = recordCodexFill(r.data);
      if (said !== undefined) last = said;
    }
    expect(last!).toEqual({ fill: { tokens: 1010, model: null, source: 'token_count', uuid: null }, window: 258_400 });
  });

  it('makes the fill stale at a compacted record, and subtracts reasoning tokens', () => {
    expect(recordCodexFill({ type: 'compacted', payload: { message: 'x' } })).toBeNull();
    const usage = { input_tokens: 900, output_tokens: 100, reasoning_output_tokens: 40, total_tokens: 1000 };
    expect(recordCodexFill({ type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: usage, model_context_window: 1000 } } })?.fill.tokens).toBe(960);
  });
});
