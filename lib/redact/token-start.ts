import { looksRandom } from './random-tokens';

/** A prefix that is a plain lower-case word and a hyphen (`sk-`, `key-`, `pypi-`): an ordinary word can end in it. */
const WORDLIKE_PREFIX = /^[a-z]+-/;

/**
 * True when the token `match` at `at` starts a word, as a prefixed token must (`sk-` inside
 * `disk-…` is no key): nothing but a break before it (not `[A-Za-z0-9_]`), a JSON `\n` / `\r` /
 * `\t` escape, or a hyphen. After a hyphen (`git push-ghp_…`, `deploy-npm_…`) a prefix that holds
 * `_`, `.`, a digit or a capital counts at once; one that is a plain word and a hyphen only
 * when the rest reads as random (`cache-key-<md5>` is an identifier, `task-sk-<key>` a key).
 */
export function startsToken(text: string, at: number, match: string): boolean {
  if (at === 0) return true;
  const before = text.charCodeAt(at - 1);
  if (!isWordChar(before)) return true;
  if (at >= 2 && text.charCodeAt(at - 2) === 92 && (before === 110 || before === 114 || before === 116)) return true; // \n \r \t
  if (before !== 45) return false;
  const wordlike = WORDLIKE_PREFIX.exec(match);
  return wordlike === null || looksRandom(match.slice(wordlike[0].length));
}

/** `[A-Za-z0-9_-]`. */
function isWordChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}
