import { foldHomePaths, foldHomePathsDeep } from '../../lib/redact/home-paths';

describe('foldHomePaths', () => {
  it.each([
    ['see /home/alice/proj/a.ts:3', 'see ~/proj/a.ts:3'],
    ['at /Users/bob.smith/Library/x', 'at ~/Library/x'],
    ['cd /home/alice && ls', 'cd ~ && ls'],
    ['(/home/alice)', '(~)'],
    ['C:\\Users\\alice\\proj\\a.ts', '~\\proj\\a.ts'],
    ['"C:\\\\Users\\\\alice\\\\x"', '"~\\\\x"'],
    ['C:/Users/alice/x', '~/x'],
    ['file:///home/al/x', 'file://~/x'],
  ])('writes the home folder in %j as ~', (text, folded) => {
    expect(foldHomePaths(text)).toBe(folded);
  });

  it.each(['/var/home/al/x', '/Users/Shared/x', 'C:\\Users\\Public\\x', '/home/', 'src/home/alice', '~/home/x', 'a/Users/b'])('leaves %j as it is: no user home', (text) => {
    expect(foldHomePaths(text)).toBe(text);
  });

  it('folds every string of a parsed document, keys and other values untouched', () => {
    expect(foldHomePathsDeep({ objective: '/home/a/x', list: ['/Users/b/y', 3], n: null })).toEqual({ objective: '~/x', list: ['~/y', 3], n: null });
  });
});
