import { changedRecently } from '../../lib/git/config-cache';

/** A stat key (see statKey) with both times at `ms` plus `subNs` nanoseconds. */
const key = (ms: number, subNs: bigint) => {
  const ns = (BigInt(Math.floor(ms / 1000)) * 1_000_000_000n + subNs).toString();
  return `${ns}:${ns}:10:1:1`;
};

describe('changedRecently', () => {
  const now = 1_800_000_000_000;

  it.each([
    ['a missing file', null, false],
    ['a change 3 s ago with nanosecond timestamps', key(now - 3000, 123_456_789n), false],
    ['a change 3 s ago with whole-second timestamps', key(now - 3000, 0n), true],
    ['a change 10 s ago with whole-second timestamps', key(now - 10_000, 0n), false],
    ['a change in this very second with nanosecond timestamps', key(now + 1000, 1n), true],
  ])('judges %s', (_name, k, expected) => {
    expect(changedRecently(k, now)).toBe(expected);
  });
});
