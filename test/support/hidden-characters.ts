// The invisible characters the second red-team round got past inert() and the terminal, one of
// each class (lib/capsule/hidden-characters.ts), shared by every test of a surface that must
// fold or escape them.
export const INVISIBLE_CHARACTERS: Array<[string, string]> = [
  ['TAG LATIN CAPITAL A (U+E0041)', '\u{E0041}'],
  ['LANGUAGE TAG (U+E0001)', '\u{E0001}'],
  ['CANCEL TAG (U+E007F)', '\u{E007F}'],
  ['SOFT HYPHEN', '\u00ad'],
  ['MONGOLIAN VOWEL SEPARATOR', '\u180e'],
  ['INTERLINEAR ANNOTATION ANCHOR', '\ufff9'],
  ['INTERLINEAR ANNOTATION TERMINATOR', '\ufffb'],
  ['HANGUL FILLER', '\u3164'],
  ['HANGUL CHOSEONG FILLER', '\u115f'],
  ['HALFWIDTH HANGUL FILLER', '\uffa0'],
  ['COMBINING GRAPHEME JOINER', '\u034f'],
  ['VARIATION SELECTOR-16', '\ufe0f'],
  ['VARIATION SELECTOR-17', '\u{E0100}'],
  ['INVISIBLE TIMES', '\u2062'],
  ['WORD JOINER', '\u2060'],
  ['ARABIC NUMBER SIGN', '\u0600'],
  ['MUSICAL SYMBOL BEGIN BEAM', '\u{1D173}'],
  ['KHMER VOWEL INHERENT AQ', '\u17b4'],
  ['a lone surrogate', '\ud800'],
];

/** A hidden instruction spelled in tag characters: invisible on screen, read as ASCII by a model. */
export function tagText(ascii: string): string {
  return Array.from(ascii, (c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
}
