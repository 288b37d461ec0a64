import { isBudgetBlockReason, renderBudgetBlockReason, renderBudgetWarning } from '../../lib/budget/budget-message';
import { resolveBudget } from '../../lib/budget/resolve-budget';

function points(env: Record<string, string> = {}) {
  const { resolution } = resolveBudget({ model: 'claude-sonnet-4-5', env, settings: {}, margins: {} });
  if (resolution.status !== 'ok') throw new Error('setup');
  return resolution.points;
}

describe('renderBudgetWarning', () => {
  it('names the fill, the points, the skill and /clear', () => {
    const text = renderBudgetWarning(150_000, points());
    for (const part of ['150k', '142.4k', '158.8k', '167k', 'context-capsule', '/clear']) expect(text).toContain(part);
  });

  it('says when the host will not compact by itself', () => {
    expect(renderBudgetWarning(150_000, points({ DISABLE_AUTO_COMPACT: '1' }))).toContain('automatic compaction is off');
  });
});

describe('renderBudgetBlockReason', () => {
  it('asks for the capsule now and for the user to run /clear', () => {
    const text = renderBudgetBlockReason(160_000, points());
    for (const part of ['160k', '158.8k', 'context-capsule', '/clear']) expect(text).toContain(part);
  });
});

describe('isBudgetBlockReason', () => {
  it('recognises the block as the host hands it to the agent', () => {
    expect(isBudgetBlockReason(`Stop hook feedback:\n${renderBudgetBlockReason(1_234_567, points())}`)).toBe(true);
  });

  it('does not take the warning for a block', () => {
    expect(isBudgetBlockReason(renderBudgetWarning(150_000, points()))).toBe(false);
  });
});
