import { formatTokens, parseTokenCount } from '../../lib/budget/token-count';

describe('parseTokenCount', () => {
  it.each([
    ['150000', 150_000],
    ['100k', 100_000],
    ['100K', 100_000],
    ['1.5k', 1_500],
    ['1m', 1_000_000],
    ['0.5M', 500_000],
    [' 200k ', 200_000],
    ['0', 0],
  ])('reads %s as %d tokens', (text, tokens) => {
    expect(parseTokenCount(text)).toEqual({ ok: true, tokens });
  });

  it.each([
    ['', 'EMPTY'],
    ['  ', 'EMPTY'],
    ['-5', 'NOT_A_COUNT'],
    ['100 k', 'NOT_A_COUNT'],
    ['1e5', 'NOT_A_COUNT'],
    ['100,000', 'NOT_A_COUNT'],
    ['1kb', 'NOT_A_COUNT'],
    ['off', 'NOT_A_COUNT'],
    ['1.0005k', 'NOT_WHOLE'],
    ['12.5', 'NOT_WHOLE'],
  ])('refuses %j with %s', (text, reason) => {
    expect(parseTokenCount(text)).toEqual({ ok: false, reason });
  });
});

describe('formatTokens', () => {
  it.each([
    [1234, '1234'],
    [167_000, '167k'],
    [158_808, '158.8k'],
    [1_000_000, '1m'],
    [967_000, '967k'],
  ])('formats %d as %s', (tokens, text) => {
    expect(formatTokens(tokens)).toBe(text);
  });
});
