import { escapeForTerminal, foldHidden, hasHiddenCharacter } from '../../lib/capsule/hidden-characters';

const controls = [...Array.from({ length: 32 }, (_, c) => c), 0x7f].map((c) => String.fromCharCode(c));
const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');

describe('hidden characters', () => {
  it('keeps printable ASCII as it is', () => {
    expect(foldHidden(printable)).toBe(printable);
    expect(hasHiddenCharacter(printable)).toBe(false);
    expect(escapeForTerminal(printable)).toBe(printable);
  });

  it.each(controls.map((ch) => [ch.charCodeAt(0), ch]))('folds the ASCII control 0x%s inside printable text', (_code, ch) => {
    expect(foldHidden(`a${ch}b`)).toBe('a b');
    expect(hasHiddenCharacter(`a${ch}b`)).toBe(true);
  });

  it.each([['soft hyphen', '\u00ad'], ['zero-width space', '\u200b'], ['tag character', '\u{e0041}'], ['Hangul filler', '\u3164'], ['line separator', '\u2028']])('folds a %s outside ASCII', (_name, ch) => {
    expect(foldHidden(`a${ch}b`)).toBe('a b');
    expect(hasHiddenCharacter(`x${ch}`)).toBe(true);
  });

  it('escapes ESC for a terminal and keeps a newline', () => {
    expect(escapeForTerminal('a\u001b]52\nb')).toBe('a\\u001b]52\nb');
  });
});
