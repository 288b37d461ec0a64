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

  describe('against the property classes, for every BMP code unit', () => {
    // The oracle: the classes the module documents, built here independently of its fast paths.
    const oracle = () => /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Cs}]/gu;
    const units = Array.from({ length: 0x10000 }, (_, c) => String.fromCharCode(c));

    it('folds, finds and escapes exactly what the classes name, beside visible non-ASCII text', () => {
      const wrong: string[] = [];
      for (const ch of units) {
        // "é" and "→" keep the text non-ASCII, so each unit is judged on the path such text takes.
        const text = `é${ch}→`;
        const hidden = oracle().test(text);
        if (foldHidden(text) !== text.replace(oracle(), ' ')) wrong.push(`fold U+${ch.charCodeAt(0).toString(16)}`);
        if (hasHiddenCharacter(text) !== hidden) wrong.push(`has U+${ch.charCodeAt(0).toString(16)}`);
        if ((escapeForTerminal(text) !== text) !== (hidden && !['\n', '\t'].includes(ch))) wrong.push(`escape U+${ch.charCodeAt(0).toString(16)}`);
      }
      expect(wrong).toEqual([]);
    });

    it('folds a hidden character between visible non-ASCII letters', () => {
      expect(foldHidden('naïve\u200bcafé\u00ad→')).toBe('naïve café →');
      expect(foldHidden('日本\u3164語', '_')).toBe('日本_語');
      expect(hasHiddenCharacter('— ok \u202e')).toBe(true);
      expect(escapeForTerminal('→\u001b[2J')).toBe('→\\u001b[2J');
    });

    it('folds ASCII controls in visible non-ASCII text, one replacement each', () => {
      expect(foldHidden('a\u0000\u001f→\u007fb', '.')).toBe('a..→.b');
      expect(hasHiddenCharacter('→\tb')).toBe(true);
      expect(escapeForTerminal('→\r\nb\r')).toBe('→\r\nb\\u000d');
    });

    it('folds a character beyond the BMP by the classes (a tag character beside an emoji)', () => {
      expect(foldHidden('→🎉\u{e0041}x')).toBe('→🎉 x');
      expect(hasHiddenCharacter('→🎉')).toBe(false);
    });
  });
});

