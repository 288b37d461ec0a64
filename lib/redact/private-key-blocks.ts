import type { FindingTally } from './finding-tally';
import { redactionMarker } from './redaction-marker';

/** The literal every private-key block holds (cue-scan.ts). */
export const PRIVATE_KEY_CUE = 'PRIVATE KEY';

const HEADER = /-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----/g;
const FOOTER = /-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----/y;
// What a block cut off before its END line still holds after its header: base64 lines behind
// real or JSON-escaped (\n, \\n) line breaks, optionally behind a host line-number prefix, the
// PEM header lines, or base64 runs whose line breaks a renderer folded into spaces. Each
// repetition starts with a line break or a space and the runs after them exclude both, so the
// scan never backtracks more than one step.
const CUT_OFF_TAIL = /(?:(?:\r?\n|\\{1,2}r?\\{0,2}n)+[ \t]*(?:\d+(?:→|\t))?(?:[A-Za-z0-9+/=]+|(?:Proc-Type|DEK-Info|Comment):[^\n\\]*)| +[A-Za-z0-9+/=]{16,})*/y;
/** Longest body between a header and its END line that is redacted as one block. */
const MAX_BODY = 65536;

/** True for a character a PEM body (or its JSON-escaped, line-numbered or headered form) can hold. */
function isBodyChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 61 ||
    c === 32 || c === 9 || c === 10 || c === 13 || c === 92 || c === 58 || c === 44 || c === 46 || c === 45 || c === 0x2192;
}

/**
 * Replaces every private-key block with `[REDACTED:private-key]`: from its BEGIN line to its END
 * line, or, when no END line follows its body (a truncated tool output), to the end of the base64
 * lines after the header. Linear in the text: the next END line and the end of the current body
 * run are each found once and reused by every header before them, so many headers without an
 * END line cost no more than one.
 */
export function redactPrivateKeys(text: string, tally: FindingTally): string {
  if (!text.includes(PRIVATE_KEY_CUE)) return text;
  let out = '';
  let copied = 0;
  let nextEnd = -2; // -2: not searched yet; -1: none after the last search
  let bodyRunFrom = -1;
  let bodyRunTo = -1;
  HEADER.lastIndex = 0;
  for (let m = HEADER.exec(text); m !== null; m = HEADER.exec(text)) {
    const start = m.index;
    const bodyAt = start + m[0].length;
    if (nextEnd !== -1 && nextEnd < bodyAt) nextEnd = text.indexOf('-----END', bodyAt);
    // The end of the run of body characters from bodyAt (shared by headers inside one run).
    if (bodyAt < bodyRunFrom || bodyAt > bodyRunTo) {
      bodyRunFrom = bodyAt;
      bodyRunTo = bodyAt;
      while (bodyRunTo < text.length && bodyRunTo - bodyAt <= MAX_BODY && isBodyChar(text.charCodeAt(bodyRunTo))) bodyRunTo++;
    }
    let end = -1;
    if (nextEnd !== -1 && nextEnd <= bodyRunTo && nextEnd - bodyAt <= MAX_BODY) {
      FOOTER.lastIndex = nextEnd;
      if (FOOTER.test(text)) end = FOOTER.lastIndex;
    }
    if (end === -1) {
      CUT_OFF_TAIL.lastIndex = bodyAt;
      CUT_OFF_TAIL.test(text);
      end = CUT_OFF_TAIL.lastIndex;
    }
    tally.add('private-key');
    out += text.slice(copied, start) + redactionMarker('private-key');
    copied = end;
    HEADER.lastIndex = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
