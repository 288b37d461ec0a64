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

/** The global pattern, made on first use. */
function allHidden(): RegExp {
  return (hiddenAll ??= new RegExp(HIDDEN_SOURCE, 'gu'));
}

/** Replaces every hidden character (see above) with `replacement`, one per code point. */
export function foldHidden(text: string, replacement = ' '): string {
  if (!OUTSIDE_PRINTABLE_ASCII.test(text)) return text;
  return text.replace(allHidden(), replacement);
}

/** True when the text holds a hidden character. */
export function hasHiddenCharacter(text: string): boolean {
  return OUTSIDE_PRINTABLE_ASCII.test(text) && (hiddenOne ??= new RegExp(HIDDEN_SOURCE, 'u')).test(text);
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
  return text.replace(allHidden(), (ch: string, at: number, whole: string) => {
    if (ch === '\n' || ch === '\t' || (ch === '\r' && whole.charCodeAt(at + 1) === 10)) return ch;
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
