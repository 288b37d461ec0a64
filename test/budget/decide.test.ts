import { decideBudget, type DecideBudgetInput } from '../../lib/budget/decide';
import { resolveBudget } from '../../lib/budget/resolve-budget';
import type { BudgetPoints } from '../../lib/budget/thresholds';

function points(env: Record<string, string> = {}): BudgetPoints {
  const { resolution } = resolveBudget({ model: 'claude-sonnet-4-5', env, settings: {}, margins: {} });
  if (resolution.status !== 'ok') throw new Error('setup');
  return resolution.points; // warning 142424, hard 158808
}

const FRESH = { warnedWindow: null, blockedWindow: null };

function decide(over: Partial<DecideBudgetInput>) {
  return decideBudget({ fill: 150_000, points: points(), flags: FRESH, windowId: 's1:0', stopHookActive: false, event: 'UserPromptSubmit', ...over });
}

describe('decideBudget', () => {
  describe('on UserPromptSubmit', () => {
    it('warns once the fill reaches the warning point and marks the window', () => {
      expect(decide({ fill: 142_424 })).toEqual({ action: 'warn', flags: { warnedWindow: 's1:0', blockedWindow: null } });
    });

    it('says nothing below the warning point', () => {
      expect(decide({ fill: 142_423 })).toMatchObject({ action: 'none', why: 'BELOW_POINT', flags: FRESH });
    });

    it('does not warn twice in one window', () => {
      expect(decide({ flags: { warnedWindow: 's1:0', blockedWindow: null } })).toMatchObject({ action: 'none', why: 'ALREADY_DONE' });
    });

    it('warns again in a new window (after a clear or compaction)', () => {
      expect(decide({ flags: { warnedWindow: 's1:0', blockedWindow: 's1:0' }, windowId: 's1:1' })).toMatchObject({ action: 'warn' });
    });

    it('warns past the hard point when the window was never warned', () => {
      expect(decide({ fill: 170_000 })).toMatchObject({ action: 'warn' });
    });

    it('still warns when auto-compaction is off', () => {
      expect(decide({ points: points({ DISABLE_AUTO_COMPACT: '1' }), fill: 160_000 })).toMatchObject({ action: 'warn' });
    });
  });

  describe('on Stop', () => {
    const stop = (over: Partial<DecideBudgetInput>) => decide({ event: 'Stop', fill: 158_808, ...over });

    it('blocks at the hard point and marks the window warned and blocked', () => {
      expect(stop({})).toEqual({ action: 'block', flags: { warnedWindow: 's1:0', blockedWindow: 's1:0' } });
    });

    it('does not block below the hard point, even past the warning point', () => {
      expect(stop({ fill: 158_807 })).toMatchObject({ action: 'none', why: 'BELOW_POINT' });
    });

    it('never blocks while stop_hook_active is true, and leaves the flags alone', () => {
      expect(stop({ stopHookActive: true })).toEqual({ action: 'none', why: 'STOP_HOOK_ACTIVE', flags: FRESH });
    });

    it('never blocks twice in one window', () => {
      const first = stop({});
      expect(stop({ flags: first.flags })).toMatchObject({ action: 'none', why: 'ALREADY_DONE' });
    });

    it('blocks again in the next window', () => {
      expect(stop({ flags: { warnedWindow: 's1:0', blockedWindow: 's1:0' }, windowId: 's1:1' })).toMatchObject({ action: 'block' });
    });

    it('does not block when auto-compaction is off', () => {
      expect(stop({ points: points({ DISABLE_AUTO_COMPACT: '1' }), fill: 179_000 })).toMatchObject({ action: 'none', why: 'BLOCK_DISABLED' });
    });
  });

  it.each([
    ['no fill', { fill: null }, 'NO_FILL'],
    ['no points', { points: null }, 'NO_POINTS'],
  ] as const)('does nothing with %s', (_name, over, why) => {
    expect(decide(over)).toMatchObject({ action: 'none', why });
    expect(decide({ ...over, event: 'Stop' })).toMatchObject({ action: 'none', why });
  });
});
