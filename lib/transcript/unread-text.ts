/**
 * Whether a text is written in words the English patterns cannot read: mostly a script other
 * than Latin (Japanese, Chinese, Korean, Cyrillic, …), or Latin prose whose function words are
 * another language's (German, Spanish, French, Italian, Portuguese, Dutch). Such a text is
 * quoted, never labelled from its words: what the patterns miss there they cannot tell from
 * "nothing was said". One pass over bounded text; code and paths weigh nothing either way.
 *
 * @example isUnreadText('Als Nächstes übersetze ich die Spaltenüberschriften.') // true
 */
export function isUnreadText(text: string): boolean {
  const sample = text.slice(0, MAX_READ_CHARS);
  const letters = sample.match(LETTER)?.length ?? 0;
  if (letters === 0) return false;
  const latin = sample.match(LATIN)?.length ?? 0;
  if (latin / letters < LATIN_SHARE) return true;
  let english = 0;
  let other = 0;
  for (const word of sample.toLowerCase().match(WORD) ?? []) {
    if (ENGLISH.has(word)) english += 1;
    else if (OTHER.has(word)) other += 1;
  }
  return other >= 2 && other > 2 * english;
}

// A final message's plan is in its first few thousand characters or its end; this is enough to judge the language.
const MAX_READ_CHARS = 4000;
const LETTER = /\p{L}/gu;
const LATIN = /\p{Script=Latin}/gu;
// Below this share of Latin letters a text is in another script.
const LATIN_SHARE = 0.7;
const WORD = /[\p{L}']+/gu;
// English function words (none of them also a common word of the languages below).
const ENGLISH: ReadonlySet<string> = new Set('the to and of is are it for on with that this will be have has not you we i now next then from by or but can should into would i\'ll we\'ll let\'s'.split(' '));
// Function words of the other languages users wrote to us in (none of them also an English word).
const OTHER: ReadonlySet<string> = new Set(
  [
    'der die das und ist ich nicht mit für auf den dem des zu ein eine einen jetzt noch auch als wird sind wir bitte nächstes dann',
    'de el la los las que y es por para con una del al ahora también pero se lo como está',
    'le les des et est je pas pour avec une dans du au sur nous mais aussi maintenant',
    'il gli che è per sono anche della questo',
    'os não uma também está',
    'het een van ik niet voor ook nu',
  ].join(' ').split(' '),
);
