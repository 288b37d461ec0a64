import type { FindingTally } from './finding-tally';
import { redactionMarker } from './redaction-marker';

// The allow-list for text that is kept (a capsule, the runtime state): words stay, and any token
// of twelve characters or more that is not made of word-like parts is masked, whatever produced
// it. The deny-list rules (provider formats, assignments, command flags) name what they know;
// this catches what they do not (a password handed to a tool no rule knows, a key pasted into a
// sentence, a token wrapped over two lines) at the price of masking odd identifiers too, unless
// the repository's own names vouch for them (`known`).

/** A token shorter than this is never masked: it cannot hold a twelve-character run of a secret. */
export const MIN_OPAQUE_TOKEN = 12;

// A token: a run of characters that are neither space nor a delimiter of prose, code or markup.
// Punctuation inside a password (`!#%^*&@~+=;`) keeps it one token, so `Ab12!cd34#ef` is judged whole.
const TOKEN = /[^\s"'`()[\]{}<>,|\\:]{12,}/g;
// Parts of a token: the pieces between separators, judged one by one.
const PART_SEPARATOR = /[^A-Za-z0-9]+/;

// A ULID (capsule ids), a UUID, hex of any length (commit ids, hashes): data the kept text holds.
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const HEX = /^(?:0x)?[0-9a-fA-F]+$/;

/** Vocabulary with digits: `sha256`, `node20`, `x86`, `v1beta1`, `TS2345`, `4xx`, `utf8`, `2nd`. */
const WORD_WITH_DIGITS = /^(?:[a-z]{1,6}\d{1,4}[a-z]?|[a-z]{7,12}\d|[A-Z]{1,5}\d{1,5}|\d{1,4}[a-z]{1,3}|v\d+[a-z]+\d*|[A-Z][a-z]{1,8}\d)$/;
/** Parts of a timestamp: `29T21` in `2026-11-29T21:00`, `20261129T211500123Z`. */
const TIME_PART = /^(?:\d{1,2}T\d{1,2}|\d{8}T\d{4,9}Z?)$/;

/** True when a run of letters reads as a word or an identifier: few case changes (`XMLHttpRequest`, `getElementById`), not `kXqPzLmWbR`, and vowels in its humps. */
function isWordLike(letters: string): boolean {
  let humps = 0;
  for (let i = 1; i < letters.length; i++) {
    const c = letters.charCodeAt(i);
    const prev = letters.charCodeAt(i - 1);
    if (c >= 65 && c <= 90 && prev >= 97 && prev <= 122) humps++;
  }
  if (humps * 4 > letters.length) return false;
  // A word's humps hold vowels; five letters in a row without one (`vMNFWH`) are not a word.
  for (const hump of letters.match(HUMP) ?? []) if (hump.length >= 5 && !/[aeiouyAEIOUY]/.test(hump) && !NO_VOWEL_WORDS.has(hump.toLowerCase())) return false;
  return true;
}
const HUMP = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+/g;
const NO_VOWEL_WORDS = new Set(['https', 'crypt', 'xmlns', 'nginx', 'pthread']);

/** True when one part of a token is a word, a number, hex, or vocabulary with digits. */
export function isPlainPart(part: string): boolean {
  if (part.length === 0 || /^\d+$/.test(part)) return true;
  if (/^[A-Za-z]+$/.test(part)) return isWordLike(part);
  if (HEX.test(part) || ULID.test(part)) return true;
  return WORD_WITH_DIGITS.test(part) || TIME_PART.test(part);
}

/** What vouches for a token beyond its own shape: names from the repository's own tree. */
export interface OpaqueOptions {
  known?: ReadonlySet<string>;
}

// Long hex is a hash, an id or a key, and only its context tells which. A git commit id (40
// characters) stays, and so does hex a digest word names (`sha256:…`, `md5 …`, `checksum …`,
// `commit …`, `id …`); any other run of 32 hex digits or more goes: a private key (`0x` + 64), an
// API key of a hex format, a hex-encoded password, a macaroon, a webhook URL's secret segment.
const KEY_HEX = /^(?:0x)?[0-9a-fA-F]{32,}$/;
/** Key-length hex somewhere in a segment: only then does its context (DIGEST_LABEL) need reading. */
const HOLDS_KEY_HEX = /[0-9a-fA-F]{32}/;
const COMMIT_ID_LENGTH = 40;
const DIGEST_LABEL = /(?:sha-?\d{0,3}|md5|blake\w*|digest|checksum|hash|integrity|commit|oid|id)[\s:=@"'(-]{0,3}$/i;

/** True when `token` is hex long enough to be a key and not a commit id (KEY_HEX); its context decides (DIGEST_LABEL). */
function isKeyHex(token: string): boolean {
  return KEY_HEX.test(token) && token.replace(/^0x/, '').length !== COMMIT_ID_LENGTH;
}

/**
 * True when `token` would be masked: at least MIN_OPAQUE_TOKEN characters, not a ULID, UUID or
 * hex, not a known name, and one of its parts (between separators) is neither a word, a number,
 * hex nor vocabulary with digits. A path is judged per `/` segment by the caller.
 */
export function isOpaqueToken(token: string, opts: OpaqueOptions = {}, labelled = false): boolean {
  if (token.length < MIN_OPAQUE_TOKEN || ULID.test(token)) return false;
  if (isKeyHex(token)) return !labelled && opts.known?.has(token) !== true;
  if (HEX.test(token.replace(/-/g, ''))) return false;
  if (opts.known?.has(token)) return false;
  for (const part of token.split(PART_SEPARATOR)) {
    if (opts.known?.has(part) === true) continue;
    // Key-length hex inside a longer token (`0x…64.cfg`, `<32 hex>_<uuid>`) is judged as it would be alone.
    if (!isPlainPart(part) || (!labelled && isKeyHex(part))) return true;
  }
  return false;
}

/**
 * Masks every opaque token of `text` (isOpaqueToken) as `[REDACTED:opaque-token]`: a token
 * with `/` (a path, a URL) segment by segment, so the path's words stay. Linear in the text.
 *
 * @example maskOpaqueTokens('the pw is Gojk10!BR5myiK, thanks') // 'the pw is [REDACTED:opaque-token], thanks'
 */
export function maskOpaqueTokens(text: string, tally: FindingTally, opts: OpaqueOptions = {}): string {
  return text.replace(TOKEN, (run: string, at: number) => {
    // Trailing sentence punctuation is not part of the token (`…lautet X.`).
    const body = run.replace(/[.!?]+$/, '');
    const tail = run.slice(body.length);
    const segments = body.split('/');
    let changed = false;
    const kept = segments.map((segment, i) => {
      // Only the run's first segment can follow a digest word (`sha256:<hex>`; `:` ends a token),
      // and only key-length hex asks: most tokens never read the text before them.
      const labelled = i === 0 && HOLDS_KEY_HEX.test(segment) && DIGEST_LABEL.test(text.slice(Math.max(0, at - 24), at));
      if (!isOpaqueToken(segment, opts, labelled)) return segment;
      changed = true;
      tally.add('opaque-token');
      return redactionMarker('opaque-token');
    });
    return changed ? kept.join('/') + tail : run;
  });
}
