import { FindingTally } from '../../lib/redact/finding-tally';
import { MIN_RANDOM_TOKEN, redactRandomTokens } from '../../lib/redact/random-tokens';

const redact = (text: string) => redactRandomTokens(text, new FindingTally());
// Reads as random: three classes, a class change at most positions, many distinct characters.
const RANDOM = 'q7Zp2Lx9Rk4Wv8Nc3Hb6Tm1Yd5Gf0JsE';

describe('redactRandomTokens', () => {
  it('redacts a random run of the minimum length, and not one a character shorter', () => {
    expect(RANDOM).toHaveLength(MIN_RANDOM_TOKEN);
    expect(redact(`key ${RANDOM} end`)).toBe('key [REDACTED:random-token] end');
    expect(redact(`key ${RANDOM.slice(1)} end`)).toBe(`key ${RANDOM.slice(1)} end`);
  });

  it('counts the run\'s `=` padding towards the minimum', () => {
    expect(redact(`key ${RANDOM.slice(1)}= end`)).toBe('key [REDACTED:random-token] end');
  });

  it('judges runs an `=` separates on their own: two short halves with slashes stay, though together they would read as random', () => {
    const half = 'aB3/dE5fG7hJ9kL1mN3'; // 19 characters, three classes, a slash
    const text = `x ${half}=${half} y`;
    expect(redact(text)).toBe(text);
  });

  it('judges a run from where it starts: a random tail after an identifier makes one long run', () => {
    expect(redact(`const a = build_${RANDOM};`)).toBe('const a = [REDACTED:random-token];');
  });

  it('leaves hex, identifiers and paths alone, as the character loop before it did', () => {
    const text = 'commit 0123456789abcdef0123456789abcdef01234567 in src/lib/someVeryLongIdentifierNameWithoutDigits.ts at /tmp/run-F0oJcH/repo-wK5DqD/repo/a';
    expect(redact(text)).toBe(text);
  });
});
