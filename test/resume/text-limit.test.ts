import { clipToLimit, fitsLimit, measureText, utf8Length } from '../../lib/resume/text-limit';

describe('utf8Length', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['\ud800', 3],
    ['a\u2028b', 5],
  ])('counts %j as %i bytes, as Buffer.byteLength does', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });
});

describe('fitsLimit', () => {
  it('counts characters for Claude Code and bytes for Codex', () => {
    const text = '€'.repeat(4000);
    expect(fitsLimit(text, { max: 10_000, unit: 'characters' })).toBe(true);
    expect(fitsLimit(text, { max: 10_000, unit: 'utf8-bytes' })).toBe(false);
    expect(measureText(text, 'utf8-bytes')).toBe(12_000);
  });

  it('takes exactly the limit and not one more', () => {
    expect(fitsLimit('a'.repeat(10_000), { max: 10_000, unit: 'utf8-bytes' })).toBe(true);
    expect(fitsLimit(`${'a'.repeat(9_999)}é`, { max: 10_000, unit: 'utf8-bytes' })).toBe(false);
  });
});

describe('clipToLimit', () => {
  it('cuts to the longest prefix that fits, never inside a surrogate pair', () => {
    const clipped = clipToLimit(`ab${'😀'.repeat(3)}`, { max: 9, unit: 'utf8-bytes' });
    expect(clipped).toBe('ab😀');
    expect(clipToLimit('ab😀', { max: 3, unit: 'characters' })).toBe('ab');
  });

  it('returns a text that fits unchanged', () => {
    expect(clipToLimit('short', { max: 10, unit: 'utf8-bytes' })).toBe('short');
  });
});
