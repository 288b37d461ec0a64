import { budgetInputsKey, resolveBudget, type BudgetInputs } from '../../lib/budget/resolve-budget';

const BASE: BudgetInputs = { model: 'claude-sonnet-4-5', env: {}, settings: {}, margins: {} };

describe('resolveBudget', () => {
  it('resolves warning and hard points from the native point and the margins', () => {
    const { resolution, reused } = resolveBudget(BASE);
    expect(reused).toBe(false);
    expect(resolution).toMatchObject({ status: 'ok', points: { warning: 142_424, hard: 158_808, native: { tokens: 167_000 } } });
  });

  it('reuses the cache while the model, cap and inputs match', () => {
    const first = resolveBudget(BASE);
    const second = resolveBudget({ ...BASE, env: { UNRELATED: 'x' } }, first.cache);
    expect(second.reused).toBe(true);
    expect(second.resolution).toBe(first.resolution);
  });

  it.each([
    ['the model', { model: 'claude-opus-5-5' }],
    ['the cap', { capTokens: 100_000 }],
    ['an env input', { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' } }],
    ['a switch', { env: { DISABLE_AUTO_COMPACT: '1' } }],
    ['a settings window', { settings: { autoCompactWindow: 120_000 } }],
    ['autoCompactEnabled', { settings: { autoCompactEnabled: false } }],
    ['a config margin', { margins: { config: { resetMarginTokens: 1000 } } }],
    ['a git config margin', { margins: { gitConfig: { 'capsule.warningrunwaytokens': '1000' } } }],
    ['the reported window', { reportedWindow: 1_000_000 }],
  ] as const)('recomputes when %s changes', (_name, over) => {
    const first = resolveBudget(BASE);
    const next = resolveBudget({ ...BASE, ...over } as BudgetInputs, first.cache);
    expect(next.reused).toBe(false);
    expect(next.resolution).not.toEqual(first.resolution);
  });

  it('ignores a cache of the wrong shape', () => {
    expect(resolveBudget(BASE, { key: budgetInputsKey(BASE), resolution: { status: 'ok' } }).reused).toBe(false);
    expect(resolveBudget(BASE, 'junk').reused).toBe(false);
  });

  it('passes the switches through', () => {
    expect(resolveBudget({ ...BASE, env: { CAPSULE_DISABLED: '' } }).resolution).toMatchObject({ status: 'disabled' });
    expect(resolveBudget({ ...BASE, env: { DISABLE_COMPACT: '1' } }).resolution).toMatchObject({ status: 'suppressed' });
  });

  it('is unresolvable when the margins leave no room', () => {
    const resolution = resolveBudget({ ...BASE, margins: { config: { resetMarginTokens: 167_000 } } }).resolution;
    expect(resolution).toMatchObject({ status: 'unresolvable' });
  });
});
