import validateConfigSchema from '../../lib/budget/generated/config-schema.js';
import { resolveNativePoint } from '../../lib/budget/native-point';
import { deriveBudgetPoints, isMargin, resolveMargins } from '../../lib/budget/thresholds';

describe('resolveMargins', () => {
  it('uses the defaults when nothing is configured', () => {
    expect(resolveMargins({})).toEqual({
      margins: { resetMarginTokens: 8192, warningRunwayTokens: 16384, from: { resetMarginTokens: 'default', warningRunwayTokens: 'default' } },
      notes: [],
    });
  });

  it('reads .capsule/config.json first', () => {
    const { margins } = resolveMargins({ config: { resetMarginTokens: 4000, warningRunwayTokens: 10000 }, gitConfig: { 'capsule.resetmargintokens': '1' } });
    expect(margins).toMatchObject({ resetMarginTokens: 4000, warningRunwayTokens: 10000, from: { resetMarginTokens: 'config', warningRunwayTokens: 'config' } });
  });

  it('falls back to git config capsule.<key> per key', () => {
    const { margins } = resolveMargins({ config: { resetMarginTokens: 4000 }, gitConfig: { 'capsule.warningrunwaytokens': '20000' } });
    expect(margins).toMatchObject({ resetMarginTokens: 4000, warningRunwayTokens: 20000, from: { resetMarginTokens: 'config', warningRunwayTokens: 'git-config' } });
  });

  it.each([
    ['a string in the config', { config: { resetMarginTokens: '4000' } }],
    ['a negative number in the config', { config: { resetMarginTokens: -1 } }],
    ['a fraction in the config', { config: { resetMarginTokens: 1.5 } }],
    ['a number above the maximum in the config', { config: { resetMarginTokens: 2_000_000 } }],
    ['a non-number in git config', { gitConfig: { 'capsule.resetmargintokens': '8k' } }],
    ['a negative number in git config', { gitConfig: { 'capsule.resetmargintokens': '-4' } }],
  ])('ignores %s with a note and uses the next source', (_name, sources) => {
    const { margins, notes } = resolveMargins(sources);
    expect(margins.resetMarginTokens).toBe(8192);
    expect(notes).toHaveLength(1);
  });

  it('ignores a config that is not an object', () => {
    expect(resolveMargins({ config: [1, 2] }).margins.from.resetMarginTokens).toBe('default');
  });
});

describe('isMargin', () => {
  it.each([0, 1, 8192, 1_000_000, 1_000_001, -1, 1.5, '8192', null, true, Number.NaN])('agrees with schemas/config.schema.json on %p', (value) => {
    expect(isMargin(value)).toBe(validateConfigSchema({ resetMarginTokens: value }));
  });
});

describe('deriveBudgetPoints', () => {
  const native = (() => {
    const r = resolveNativePoint({ model: 'claude-sonnet-4-5', env: {}, settings: {} });
    if (r.status !== 'ok') throw new Error('setup');
    return r.point;
  })();

  it('puts hard = native − 8192 and warning = hard − 16384 by default', () => {
    const derived = deriveBudgetPoints(native, resolveMargins({}).margins);
    expect(derived).toMatchObject({ ok: true, points: { hard: 158_808, warning: 142_424, blockEnabled: true } });
  });

  it('carries the auto-compaction switch as blockEnabled', () => {
    const derived = deriveBudgetPoints({ ...native, autoCompact: false }, resolveMargins({}).margins);
    expect(derived).toMatchObject({ ok: true, points: { blockEnabled: false } });
  });

  it('refuses margins that leave no room below the native point', () => {
    const { margins } = resolveMargins({ config: { resetMarginTokens: 100_000, warningRunwayTokens: 67_000 } });
    expect(deriveBudgetPoints(native, margins)).toMatchObject({ ok: false });
  });
});
