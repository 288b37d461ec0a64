/**
 * The one list of characters that may never reach a reader raw, whether the reader is the agent
 * (`inert`, the lifecycle-extension check) or a person at a terminal (`escapeForTerminal`):
 *
 * - every control (`\p{Cc}`: C0, DEL, C1 — ESC and CSI start terminal escape sequences),
 * - every format character (`\p{Cf}`: bidi controls, zero-width joiners and spaces, the BOM, the
 *   interlinear annotation marks U+FFF9–U+FFFB, the tag characters U+E0000–U+E007F, which
 *   models read as ASCII while terminals and editors show nothing),
 * - the line and paragraph separators (`\p{Zl}`, `\p{Zp}`),
 * - every default-ignorable code point (soft hyphen, U+180E, Hangul fillers U+115F/U+1160/U+3164/
 *   U+FFA0, variation selectors, combining grapheme joiner…): rendered as nothing, so text hidden
 *   between them is invisible in `git capsule show` yet read by the model,
 * - lone surrogates (`\p{Cs}`), which are no character at all.
 *
 * Classes rather than a hand-kept list: Unicode adds format characters, and a list is exactly
 * what the previous round's red team walked around.
 */
const HIDDEN_SOURCE = String.raw`[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Cs}]`;
// Built on first need: V8 expands the property classes when the pattern is made, 1–2 ms of CPU in
// a hook's process (measured 2026-12-01), and most texts are printable ASCII, where the only
// hidden characters are the controls below space and DEL.
let hiddenAll: RegExp | undefined;
let hiddenOne: RegExp | undefined;
const OUTSIDE_PRINTABLE_ASCII = /[^\x20-\x7e]/;
// Most text that is not plain ASCII is made of characters that are never hidden: Latin, Greek,
// Cyrillic, CJK and Hangul letters, typographic dashes, quotes and the ellipsis, arrows, box
// drawing, dingbats. In a text of only those (and ASCII), the hidden characters are exactly the
// ASCII controls, so it is folded without the property pattern (~1.5 ms to build in a fresh
// process, measured 2026-12-02). Anything outside these blocks, and every character beyond the
// BMP, takes the property pattern. These blocks hold no control, format, separator, surrogate
// or default-ignorable code point, assigned or reserved (Unicode's reserved default-ignorable
// ranges are where new format characters go), which test/capsule/hidden-characters.test.ts
// checks against the property pattern for every BMP code unit.
const OUTSIDE_KNOWN_VISIBLE = /[^\x00-\x7f\u00a0-\u00ac\u00ae-\u02ff\u0370-\u052f\u1e00-\u1fff\u2010-\u2027\u2030-\u205e\u2070-\u2bff\u2e00-\u2e7f\u3000-\u30ff\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff9f]/;
const ASCII_CONTROLS = /[\x00-\x1f\x7f]/g;

/** The global pattern that finds every hidden character of `text` (see above), made on first use where it needs the property classes. */
function hiddenIn(text: string): RegExp {
  if (!OUTSIDE_KNOWN_VISIBLE.test(text)) return ASCII_CONTROLS;
  return (hiddenAll ??= new RegExp(HIDDEN_SOURCE, 'gu'));
}

/** Replaces every hidden character (see above) with `replacement`, one per code point. */
export function foldHidden(text: string, replacement = ' '): string {
  if (!OUTSIDE_PRINTABLE_ASCII.test(text)) return text;
  return text.replace(hiddenIn(text), replacement);
}

/** True when the text holds a hidden character. */
export function hasHiddenCharacter(text: string): boolean {
  if (!OUTSIDE_PRINTABLE_ASCII.test(text)) return false;
  // A search, not test(): the global patterns keep no lastIndex that way.
  const all = hiddenIn(text);
  return all === ASCII_CONTROLS ? text.search(all) >= 0 : (hiddenOne ??= new RegExp(HIDDEN_SOURCE, 'u')).test(text);
}

/**
 * Text safe to write to a terminal: every hidden character except a newline, a tab and the CR of
 * a CRLF becomes a visible `\uXXXX` escape (a surrogate pair for one beyond the BMP), so ESC/OSC
 * sequences (clipboard writes, line erasure, retitling) never reach the terminal and hidden text
 * shows. The escape is also a valid JSON string escape, so `--json` output stays JSON and decodes
 * to the same value.
 *
 * @example escapeForTerminal('a\u001b]52;c;ZXZpbA==\u0007') // 'a\\u001b]52;c;ZXZpbA==\\u0007'
 */
export function escapeForTerminal(text: string): string {
  if (!OUTSIDE_PRINTABLE_ASCII.test(text)) return text;
  return text.replace(hiddenIn(text), (ch: string, at: number, whole: string) => {
    if (ch === '\n' || ch === '\t' || (ch === '\r' && whole.charCodeAt(at + 1) === 10)) return ch;
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
