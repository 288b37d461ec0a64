import type { FindingTally } from './finding-tally';
import { redactionMarker } from './redaction-marker';

// The fallback for a credential no rule names: a long run of token characters that reads as
// random (a freshly minted API key printed by a CLI, a base64 secret from `kubectl get secret`).
// What it must leave alone is measured against an ordinary-code corpus
// (test/redact/false-positives.test.ts): hex of any length (git ids, sha256, md5), UUIDs and
// ULIDs, identifiers in any case style, paths and URLs, integrity hashes behind their `sha512-`
// prefix, base64 behind `base64,`, SSH public keys (`AAAA…`), and repetitive data.
/** A run shorter than this is never judged: ids of 20–30 characters are too common. */
export const MIN_RANDOM_TOKEN = 32;
const PREFIXES_OF_DATA = ['sha1-', 'sha256-', 'sha384-', 'sha512-', 'base64,', 'h1:', 'sha256:', 'sha512:', 'sha1:', 'md5-'];

// Distinct characters of a run, counted without allocating: a stamp per ASCII code.
const seen = new Uint16Array(128);
let seenStamp = 0;

/**
 * True when a run reads as random: three character classes (or two, with enough digits, when
 * long), many class changes between neighbours (camelCase and snake_case change class only at
 * word boundaries; random text at most positions), many distinct characters, and not hex.
 */
export function looksRandom(run: string, opts: { twoClasses?: boolean } = {}): boolean {
  let upper = 0;
  let lower = 0;
  let digit = 0;
  let other = 0;
  let changes = 0;
  let previous = -1;
  let hexOnly = true;
  let distinct = 0;
  seenStamp = (seenStamp + 1) & 0xffff || 1;
  for (let i = 0; i < run.length; i++) {
    const c = run.charCodeAt(i);
    const cls = c >= 65 && c <= 90 ? 0 : c >= 97 && c <= 122 ? 1 : c >= 48 && c <= 57 ? 2 : 3;
    if (cls === 0) upper++;
    else if (cls === 1) lower++;
    else if (cls === 2) digit++;
    else other++;
    if (previous !== -1 && cls !== previous) changes++;
    previous = cls;
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 45)) hexOnly = false;
    if (seen[c & 127] !== seenStamp) {
      seen[c & 127] = seenStamp;
      distinct++;
    }
  }
  const n = run.length;
  if (hexOnly || other > n / 4) return false;
  const classes = (upper > 0 ? 1 : 0) + (lower > 0 ? 1 : 0) + (digit > 0 ? 1 : 0);
  if (distinct < Math.min(20, n / 2)) return false; // repetitive: `eHh4eHh4…`, `AAAA…`, `abcabc…`
  const changeRate = changes / (n - 1);
  if (classes === 3) return upper >= n * 0.1 && lower >= n * 0.1 && digit >= 2 && changeRate >= 0.4;
  // Two classes (base32 keys, lower-case tokens): only when long, digit-rich and unseparated.
  return opts.twoClasses === true && other === 0 && classes === 2 && digit >= n * 0.12 && n >= 40 && changeRate >= 0.35;
}

/** True when the run is data, not a credential: behind a hash or encoding prefix, or an SSH public key. */
function isData(text: string, start: number, run: string): boolean {
  if (run.startsWith('AAAA')) return true;
  for (const p of PREFIXES_OF_DATA) if (run.startsWith(p) || text.startsWith(p, start - p.length)) return true;
  return false;
}

// MIN_RANDOM_TOKEN characters in a row that a judged run (token characters, then `=` padding) is
// made of. A text without them (most of a hook's strings) is not walked at all: the loop below
// runs as JavaScript, mostly not yet compiled in a hook's short process (1.5–3 ms of CPU per Stop
// on 3 KB). Jumping from window to window inside a character loop cost more on long texts than it
// saved (15 → 29 µs/KB on the repository's sources: a window starts at most long identifiers);
// finding the runs with one regular expression (LONG_RUN) instead of the character loop is
// cheaper everywhere, cold: 2.5 → 0.9 ms on a 3 KB autosave, 26 → 7 ms on 190 KB of sources,
// 70 → 43 ms on the harness's 460 KB transcript (medians of 5-7 fresh processes, same output
// on 302,483 texts: the repository, the harness, 240,000 generated ones).
const ANY_WINDOW = new RegExp(`[A-Za-z0-9+/_=-]{${MIN_RANDOM_TOKEN}}`);

/** False when `text` holds no run `redactRandomTokens` would judge (then it returns the text as it is). */
export function mayHoldRandomToken(text: string): boolean {
  return text.length >= MIN_RANDOM_TOKEN && ANY_WINDOW.test(text);
}

/**
 * Replaces every run of token characters of at least MIN_RANDOM_TOKEN that reads as random with
 * `[REDACTED:random-token]`. One pass over the text; each run is judged once. A run inside a URL
 * path or a file path is judged per segment (`/` splits it), so paths stay.
 */
export function redactRandomTokens(text: string, tally: FindingTally): string {
  let out = '';
  let copied = 0;
  // Only runs of MIN_RANDOM_TOKEN or more are judged, so the regular expression finds them (at a
  // run's start only, by the lookbehind) and the loop below never walks the rest of the text
  // character by character in JavaScript: a 5 KB autosave document cost ~2.6 ms that way in a
  // hook's fresh process, mostly uncompiled code.
  const runs = new RegExp(LONG_RUN.source, 'g');
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
    const i = m.index;
    const j = i + m[0].length;
    if (j - i < MIN_RANDOM_TOKEN) continue; // the lookahead's window ran on into another run, past an `=`
    // The classes met on the way (1 upper, 2 lower, 4 digit): most long runs are identifiers
    // without a digit, and are passed over without a second look.
    let classes = 0;
    for (let k = i; k < j; k++) {
      const c = text.charCodeAt(k);
      classes |= c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : c >= 48 && c <= 57 ? 4 : 0;
    }
    if ((classes & 4) === 0 || classes === 4) continue;
    // Each `/`-separated segment (a path keeps its words and hex ids), then the run without its
    // slashes, three classes only (base64 holds `/`; a path's slashes would count as changes).
    const run = text.slice(i, j);
    const trim = (s: string) => s.replace(/^[-_=]+|[-_=]+$/g, '');
    const segments = run.split('/');
    // A segment that is a plain word (`tmp`, `repo`, `src`) makes the run a path: judged per
    // segment only, or a path through mkdtemp folders (`/tmp/run-F0oJcH/repo-wK5DqD/repo/a`)
    // reads as random once its slashes are gone (1 path in 2,000, measured).
    const path = segments.some((s) => /^[a-z][a-z._-]{2,}$/.test(s));
    const random = segments.some((s) => s.length >= MIN_RANDOM_TOKEN && looksRandom(trim(s), { twoClasses: true })) ||
      (run.includes('/') && !path && looksRandom(trim(run.replace(/\//g, ''))));
    if (random && !isData(text, i, run)) {
      tally.add('random-token');
      out += text.slice(copied, i) + redactionMarker('random-token');
      copied = j;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * A run the fallback may judge: token characters (letters, digits, `+ / _ -`; `=` only as trailing
 * padding, so `KEY=value` stays two runs) from where the run starts (not
 * after another token character), with its `=` padding, that are MIN_RANDOM_TOKEN or more with
 * the padding (the lookahead rules out nearly every shorter one; the loop checks the length).
 */
const LONG_RUN = new RegExp(`(?<![A-Za-z0-9+/_-])(?=[A-Za-z0-9+/_=-]{${MIN_RANDOM_TOKEN}})[A-Za-z0-9+/_-]+=*`);
