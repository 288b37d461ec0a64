import { resolveNativePoint, type NativePointInputs } from '../../lib/budget/native-point';

const SONNET = 'claude-sonnet-4-5'; // 200K window, 32K default output → reserve 20000
const OPUS = 'claude-opus-5-5'; // natively 1M

function resolve(over: Partial<NativePointInputs>) {
  return resolveNativePoint({ model: SONNET, env: {}, settings: {}, ...over });
}

function okPoint(over: Partial<NativePointInputs>) {
  const result = resolve(over);
  if (result.status !== 'ok') throw new Error(`expected ok, got ${result.status}`);
  return result;
}

describe('resolveNativePoint', () => {
  it.each([
    ['a 200K catalog model', { model: SONNET }, 167_000, 'model', 'catalog'],
    ['a natively 1M model', { model: OPUS }, 967_000, 'model', 'catalog'],
    ['a [1m]-tagged id', { model: 'claude-sonnet-4-6[1m]' }, 967_000, 'model', 'tag-1m'],
    ['a dated Bedrock spelling', { model: 'us.anthropic.claude-opus-4-8-20260101-v1:0' }, 967_000, 'model', 'catalog'],
    ['a model with an 8K output cap (smaller reserve)', { model: 'claude-3-5-haiku-20241022' }, 178_808, 'model', 'catalog'],
    ['an unknown model (classic 200K)', { model: 'some-local-model' }, 167_000, 'model', 'default'],
    ['no model at all', { model: null }, 167_000, 'model', 'default'],
    ['the host-reported window', { model: 'claude-sonnet-4-6', reportedWindow: 1_000_000 }, 967_000, 'host', 'host'],
  ] as const)('computes window − reserve − 13000 for %s', (_name, over, tokens, windowSource, modelWindowSource) => {
    const { point } = okPoint(over);
    expect(point).toMatchObject({ tokens, windowSource, modelWindowSource, pointSource: 'computed', autoCompact: true });
  });

  it.each([
    ['CLAUDE_CODE_AUTO_COMPACT_WINDOW', { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' } }, 117_000, 'env'],
    ['CLAUDE_CODE_AUTO_COMPACT_WINDOW with a k suffix', { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150k' } }, 117_000, 'env'],
    ['an env window below the host minimum (read as 100000)', { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '50000' } }, 67_000, 'env'],
    ['an env window above the model window (capped)', { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '300000' } }, 167_000, 'model'],
    ['autoCompactWindow in settings', { settings: { autoCompactWindow: 120_000 } }, 87_000, 'settings'],
    ['modelSettings for the canonical model', { settings: { modelSettings: { [SONNET]: { autoCompactWindow: 110_000 } } } }, 77_000, 'settings-model'],
    ['modelSettings keyed by the canonical id for a dated id', { model: 'claude-sonnet-4-5-20250929', settings: { modelSettings: { [SONNET]: { autoCompactWindow: 110_000 } } } }, 77_000, 'settings-model'],
    ['the smallest of env and settings (settings smaller)', { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' }, settings: { autoCompactWindow: 120_000 } }, 87_000, 'settings'],
    ['the smallest of env and settings (env smaller)', { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '110000' }, settings: { autoCompactWindow: 120_000 } }, 77_000, 'env'],
    ['the runtime cap', { capTokens: 100_000 }, 67_000, 'cap'],
    ['a cap above the window (no effect)', { capTokens: 500_000 }, 167_000, 'model'],
    ['a cap on a 1M model', { model: OPUS, capTokens: 200_000 }, 167_000, 'cap'],
  ] as const)('clamps the window by %s', (_name, over, tokens, windowSource) => {
    expect(okPoint(over).point).toMatchObject({ tokens, windowSource });
  });

  it('ignores modelSettings of another model', () => {
    expect(okPoint({ settings: { modelSettings: { 'claude-opus-4-8': { autoCompactWindow: 110_000 } } } }).point.tokens).toBe(167_000);
  });

  it.each([
    ['garbage in CLAUDE_CODE_AUTO_COMPACT_WINDOW', { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: 'lots' } }],
    ['a string autoCompactWindow', { settings: { autoCompactWindow: '120000' } }],
    ['an autoCompactWindow below 100000', { settings: { autoCompactWindow: 50_000 } }],
    ['a non-object modelSettings', { settings: { modelSettings: 'x' } }],
    ['a fractional CLAUDE_CODE_MAX_OUTPUT_TOKENS', { env: { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '12.5' } }],
    ['a percent override of 0', { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '0' } }],
    ['a percent override above 100', { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '150' } }],
    ['a non-numeric percent override', { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: 'half' } }],
    ['a non-numeric reported threshold', { reportedThreshold: '150000' }],
    ['a negative reported window', { reportedWindow: -1 }],
  ] as const)('ignores %s with a note and falls back', (_name, over) => {
    const result = okPoint(over);
    expect(result.point.tokens).toBe(167_000);
    expect(result.notes).toHaveLength(1);
  });

  it('treats "auto" as no configured window, without a note', () => {
    const result = okPoint({ settings: { autoCompactWindow: 'auto' } });
    expect(result.point.tokens).toBe(167_000);
    expect(result.notes).toEqual([]);
  });

  it('treats a settings value that is not an object as no settings', () => {
    expect(okPoint({ settings: ['autoCompactEnabled', false] }).point).toMatchObject({ tokens: 167_000, autoCompact: true });
  });

  it('uses CLAUDE_CODE_MAX_OUTPUT_TOKENS below 20000 as the output reserve', () => {
    expect(okPoint({ env: { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '4096' } }).point).toMatchObject({ outputReserve: 4096, tokens: 182_904 });
  });

  describe('CLAUDE_AUTOCOMPACT_PCT_OVERRIDE', () => {
    it('lowers the point to the percent of the effective window', () => {
      // The harness saw 5% of 980k = 49k on claude-opus-5-5.
      expect(okPoint({ model: OPUS, env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '5' } }).point).toMatchObject({ tokens: 49_000, pctOverride: 5 });
    });

    it('never raises the point', () => {
      expect(okPoint({ env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '95' } }).point.tokens).toBe(167_000);
    });

    it('lowers a reported threshold too', () => {
      expect(okPoint({ reportedThreshold: 150_000, env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' } }).point).toMatchObject({ tokens: 90_000, pointSource: 'threshold' });
    });

    it('is ignored while auto-compaction is off', () => {
      expect(okPoint({ env: { DISABLE_AUTO_COMPACT: '1', CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '5' } }).point).toMatchObject({ tokens: 180_000, pctOverride: null });
    });
  });

  describe('a reported threshold', () => {
    it('is used when it is a positive whole number', () => {
      expect(okPoint({ reportedThreshold: 150_000 }).point).toMatchObject({ tokens: 150_000, pointSource: 'threshold' });
    });

    it('is lowered by the cap but never raised by it', () => {
      expect(okPoint({ reportedThreshold: 150_000, capTokens: 100_000 }).point.tokens).toBe(67_000);
      expect(okPoint({ reportedThreshold: 60_000, capTokens: 100_000 }).point.tokens).toBe(60_000);
    });
  });

  describe('automatic compaction off', () => {
    it.each([
      ['DISABLE_AUTO_COMPACT=1', { env: { DISABLE_AUTO_COMPACT: '1' } }],
      ['DISABLE_AUTO_COMPACT=true', { env: { DISABLE_AUTO_COMPACT: 'true' } }],
      ['autoCompactEnabled: false', { settings: { autoCompactEnabled: false } }],
    ] as const)('puts the point at window − output reserve with %s', (_name, over) => {
      expect(okPoint(over).point).toMatchObject({ tokens: 180_000, autoCompact: false });
    });

    it('stays on with DISABLE_AUTO_COMPACT=0', () => {
      expect(okPoint({ env: { DISABLE_AUTO_COMPACT: '0' } }).point.autoCompact).toBe(true);
    });

    it('ignores settings windows but keeps the env window, as the host does', () => {
      expect(okPoint({ env: { DISABLE_AUTO_COMPACT: '1' }, settings: { autoCompactWindow: 120_000 } }).point.tokens).toBe(180_000);
      expect(okPoint({ env: { DISABLE_AUTO_COMPACT: '1', CLAUDE_CODE_AUTO_COMPACT_WINDOW: '150000' } }).point.tokens).toBe(130_000);
    });
  });

  describe('switches', () => {
    it.each([
      ['DISABLE_COMPACT=1', 'suppressed', { DISABLE_COMPACT: '1' }],
      ['DISABLE_COMPACT=yes', 'suppressed', { DISABLE_COMPACT: 'yes' }],
      ['CAPSULE_DISABLED set', 'disabled', { CAPSULE_DISABLED: '1' }],
      ['CAPSULE_DISABLED set to empty (presence counts)', 'disabled', { CAPSULE_DISABLED: '' }],
      ['CAPSULE_DISABLED set to 0 (presence counts)', 'disabled', { CAPSULE_DISABLED: '0' }],
      ['CAPSULE_DISABLED with DISABLE_COMPACT (the tool is off first)', 'disabled', { CAPSULE_DISABLED: '1', DISABLE_COMPACT: '1' }],
      ['DISABLE_COMPACT=0', 'ok', { DISABLE_COMPACT: '0' }],
    ] as const)('resolves %s as %s', (_name, status, env) => {
      expect(resolve({ env }).status).toBe(status);
    });
  });

  it('says unresolvable when the window leaves no room for the reserves', () => {
    expect(resolve({ capTokens: 20_000 })).toMatchObject({ status: 'unresolvable' });
  });

  it('ignores a cap that is not a positive whole number with a note', () => {
    const result = okPoint({ capTokens: -5 });
    expect(result.point.tokens).toBe(167_000);
    expect(result.notes).toHaveLength(1);
  });
});
