import { cueScanner } from '../../lib/redact/cue-scan';

const scan = cueScanner([
  { text: 'sk-', families: 1 },
  { text: 'sk-ant-', families: 2 },
  { text: 'token', families: 4 },
  { text: 'ken', families: 8 },
  { text: 'xox', families: 16 },
  { text: 'oxb', families: 32 },
]);

describe('cueScanner', () => {
  it('returns null for a text that holds no cue', () => {
    expect(scan('an ordinary sentence about disks')).toBeNull();
  });

  it('finds a cue that is a prefix of a longer one at the same place', () => {
    const found = scan('key sk-ant-abc');
    expect([...found!.cues].sort()).toEqual(['sk-', 'sk-ant-']);
    expect(found!.families).toBe(1 | 2);
  });

  it('finds a cue held inside a longer one and one that overlaps it', () => {
    expect([...scan('the token')!.cues].sort()).toEqual(['ken', 'token']);
    expect(scan('xoxb-1')!.families).toBe(16 | 32);
  });

  it('finds every occurrence family across the text, not only the first', () => {
    expect(scan('sk- then later token')!.families).toBe(1 | 4 | 8);
  });

  it('treats cues as literals, not as patterns', () => {
    const dots = cueScanner([{ text: 'a.b', families: 1 }]);
    expect(dots('axb')).toBeNull();
    expect(dots('a.b')!.families).toBe(1);
  });

  it.each([['a single character', 'x'], ['a character outside ASCII', 'tokén']])('refuses a cue that is %s (the table is of two ASCII characters)', (_name, text) => {
    expect(() => cueScanner([{ text, families: 1 }])).toThrow(RangeError);
  });
});
