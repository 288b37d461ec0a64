import { resolveBudget } from '../../lib/budget/resolve-budget';
import { parseResetPoint, resolveResetPoint } from '../../lib/supervise/reset-point';

const resolve = (env: Record<string, string> = {}) => resolveBudget({ model: 'claude-sonnet-4-5', env, settings: {}, margins: {} }).resolution;

describe('parseResetPoint', () => {
  it.each([
    ['hard', { kind: 'hard' }],
    ['warning', { kind: 'warning' }],
    ['150k', { kind: 'tokens', tokens: 150_000 }],
    ['120000', { kind: 'tokens', tokens: 120_000 }],
  ])('reads %p', (text, spec) => {
    expect(parseResetPoint(text)).toEqual(spec);
  });

  it.each(['', 'soft', '0', '-5', '1.0005k'])('refuses %p', (text) => {
    expect(parseResetPoint(text)).toBeNull();
  });
});

describe('resolveResetPoint', () => {
  it("is the budget policy's hard point by default, and its warning point on request", () => {
    expect(resolveResetPoint({ kind: 'hard' }, resolve())).toMatchObject({ ok: true, tokens: 158_808, name: 'hard point' });
    expect(resolveResetPoint({ kind: 'warning' }, resolve())).toMatchObject({ ok: true, tokens: 142_424, name: 'warning point' });
  });

  it('follows the host settings the hook follows', () => {
    expect(resolveResetPoint({ kind: 'hard' }, resolve({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000' }))).toMatchObject({ ok: true, tokens: 58_808 });
  });

  it('makes no automatic reset with automatic compaction off, but a chosen count still resets', () => {
    const off = resolve({ DISABLE_AUTO_COMPACT: '1' });
    expect(resolveResetPoint({ kind: 'hard' }, off)).toMatchObject({ ok: false, why: expect.stringContaining('automatic compaction is off') });
    expect(resolveResetPoint({ kind: 'tokens', tokens: 90_000 }, off)).toMatchObject({ ok: true, tokens: 90_000 });
  });

  it.each([
    ['CAPSULE_DISABLED', { CAPSULE_DISABLED: '1' }],
    ['DISABLE_COMPACT', { DISABLE_COMPACT: '1' }],
  ])('makes no reset at all with %s, not even at a chosen count', (_name, env) => {
    expect(resolveResetPoint({ kind: 'tokens', tokens: 90_000 }, resolve(env))).toMatchObject({ ok: false });
  });

  it('waits for the points before the first answer, unless a count was chosen', () => {
    expect(resolveResetPoint({ kind: 'hard' }, null)).toMatchObject({ ok: false });
    expect(resolveResetPoint({ kind: 'tokens', tokens: 90_000 }, null)).toMatchObject({ ok: true });
  });
});
