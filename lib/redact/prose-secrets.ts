import type { FindingTally } from './finding-tally';
import { isPlaceholderValue, redactionMarker } from './redaction-marker';

// A secret written in a sentence, as people type it into a prompt: "my password is hunter2",
// "the db password for prod is Tr0ub4dor&3", "use passphrase correct-horse-42", "the API token
// is 9f8e…". A prompt becomes the objective, the commit subject and an index line, so the word
// after the connector goes. Found the way assignments are (lib/redact/secret-assignments.ts):
// plain `indexOf` of the hint words, then one sticky match where a hint ends.
/** A pattern built on first use: creating one costs at load, which every hook pays, and these serve only texts with a cue. */
function lazyPattern(source: string, flags: string): () => RegExp {
  let built: RegExp | undefined;
  return () => (built ??= new RegExp(source, flags));
}
const capitalised = (w: string) => [w, w.charAt(0).toUpperCase() + w.slice(1)];
/** The English secret words a prose secret follows (AFTER_HINT reads what comes after them). */
const ENGLISH_CUES: readonly string[] = ['password', 'passphrase', 'passcode', 'passwd', 'secret', 'token', 'api key'].flatMap(capitalised);
// Password words of other languages, as people write them around a password they paste: a
// sentence's grammar differs by language ("das Passwort für den Server lautet X", "le mot de
// passe du routeur est « X »", "密码是X", "пароль от админки: X"), so after one of these every
// value of the rest of the sentence that cannot be an ordinary word goes (sentenceSecrets).
// ASCII ones open the prose family through the cue scan; the others are found by one regex,
// only in a text that holds a non-ASCII character (hasForeignCue, from redactInto).
const FOREIGN_ASCII_CUES: readonly string[] = [
  'passwort', 'kennwort', 'mot de passe', 'contrasena', 'clave', 'senha', 'wachtwoord', 'losenord', 'passord', 'adgangskode',
  'haslo', 'heslo', 'salasana', 'jelszo', 'sifre', 'mat khau', 'kata sandi',
].flatMap(capitalised);
const foreignWords = lazyPattern('contraseña|Contraseña|lösenord|Lösenord|hasło|Hasło|jelszó|Jelszó|şifre|Şifre|parolă|Parolă|парол|Парол|κωδικ|Κωδικ|סיסמ|كلمة المرور|كلمة السر|密码|密碼|口令|パスワード|暗証番号|비밀번호|암호|mật khẩu|Mật khẩu|รหัสผ่าน|पासवर्ड', 'g');
// A seed phrase is words, so what follows these is read as a run of words (wordRun).
const PHRASE_CUES: readonly string[] = [...['mnemonic', 'seed phrase', 'recovery phrase', 'secret phrase', 'seed words', 'wallet phrase'].flatMap(capitalised), 'MNEMONIC', 'SEED_PHRASE'];
// One-time codes are listed after these: every code-like token of the list goes (codeList).
const CODE_CUES: readonly string[] = ['recovery code', 'backup code', 'recovery key', 'scratch code', 'RECOVERY CODE', 'BACKUP CODE'].flatMap(capitalised);

/** The secret words a prose secret follows, in every language: a text that holds none has none (the cue scan takes the ASCII ones). */
export const PROSE_CUES: readonly string[] = [...new Set([...ENGLISH_CUES, ...FOREIGN_ASCII_CUES, ...PHRASE_CUES, ...CODE_CUES])];
const FOREIGN_ASCII = new Set(FOREIGN_ASCII_CUES);
const PHRASE = new Set(PHRASE_CUES);
const CODES = new Set(CODE_CUES);

/** True when `text` holds a password word of a language written in other letters (foreignWords). */
export function hasForeignCue(text: string): boolean {
  const words = foreignWords();
  words.lastIndex = 0;
  return words.test(text);
}
// Only these take a plural and a bare colon ("passwords are …", "password: …"): a `tokens: n`
// or `secret: x` is code, which the assignment detector reads.
const PROSE_ONLY = new Set(['password', 'passphrase', 'passcode', 'passwd', 'Password', 'Passphrase', 'Passcode', 'Passwd']);

// After the hint: an optional qualifier ("for prod", "of the admin account"), then a connector
// ("is", "are", "was", ":") and the value, or the value right away ("use password X"; only for a
// value that cannot be an ordinary word, see looksSecret).
const AFTER_HINT = /(?<plural>s?)(?<qualifier>[ \t]+(?:for|of|on|to)(?:[ \t]+[^\s:]{1,30}){1,3}?)?(?:(?<connector>[ \t]+(?:is|are|was|will be|should be)[ \t]+|[ \t]*:[ \t]+)|(?<direct>[ \t]+))["'`]?(?<value>[^\s"'`]{3,200})/y;

// Words that follow "password is" in sentences about passwords rather than of them.
const STOPWORDS = new Set([
  'a', 'an', 'the', 'not', 'no', 'now', 'in', 'on', 'at', 'to', 'for', 'of', 'and', 'or', 'as', 'by', 'be', 'is', 'it', 'its', 'this', 'that', 'what',
  'set', 'unset', 'wrong', 'incorrect', 'invalid', 'correct', 'valid', 'required', 'optional', 'missing', 'empty', 'blank', 'expired', 'revoked',
  'stored', 'saved', 'hashed', 'encrypted', 'encoded', 'salted', 'rotated', 'changed', 'reset', 'updated', 'generated', 'sent', 'shown', 'hidden',
  'masked', 'redacted', 'too', 'very', 'still', 'also', 'being', 'same', 'different', 'weak', 'strong', 'short', 'long', 'needed', 'provided',
  'given', 'known', 'unknown', 'null', 'none', 'nil', 'undefined', 'true', 'false', 'string', 'number', 'used', 'only', 'never', 'always', 'case',
  'sensitive', 'ignored', 'accepted', 'rejected', 'checked', 'compared', 'verified', 'read', 'written', 'loaded', 'passed', 'taken', 'kept',
  'there', 'here', 'then', 'when', 'where', 'which', 'who', 'how', 'why', 'your', 'my', 'our', 'their', 'his', 'her', 'one', 'two', 'all', 'any',
  'some', 'each', 'every', 'should', 'must', 'can', 'will', 'may', 'would', 'could', 'has', 'have', 'had', 'was', 'were', 'are', 'been', 'from',
  'with', 'without', 'into', 'via', 'using', 'per', 'stale', 'ok', 'okay', 'fine', 'good', 'bad', 'new', 'old', 'current', 'previous', 'next',
  'first', 'last', 'default', 'local', 'remote', 'secret', 'password', 'token', 'key', 'value', 'field', 'variable', 'env', 'environment',
  'file', 'flag', 'option', 'argument', 'parameter', 'header', 'cookie', 'hash', 'prompt', 'login', 'auth', 'user', 'username', 'account',
  'type', 'types', 'interface', 'class', 'struct', 'enum', 'object', 'bytes', 'str', 'int', 'bool', 'boolean', 'any', 'function', 'method',
]);

/** True when a value written without a connector cannot be an ordinary word: a digit, a symbol, or a capital inside it. */
function looksSecret(value: string): boolean {
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) || /[^A-Za-z0-9]/.test(value.slice(0, -1)) || /.[A-Z]/.test(value) && /[a-z]/.test(value);
}

/** True when the value reads as code: a call, a member read, a type name after a colon, a condition. */
function looksLikeCode(value: string, connector: string | undefined): boolean {
  if (/[()[\]{}]/.test(value) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || value.endsWith(':')) return true;
  return connector !== undefined && connector.includes(':') && /^[A-Z][A-Za-z]*[;,]?$/.test(value);
}

/** How the value after a hint is read: English grammar, the rest of a sentence, a run of words, a list of codes. */
type HintKind = 'english' | 'sentence' | 'phrase' | 'codes';

/** Every position where a hint ends, ascending, with how to read what follows and whether it is a password word. */
function hintEnds(text: string, foreign: boolean): Array<{ end: number; password: boolean; kind: HintKind }> {
  const at: Array<{ end: number; password: boolean; kind: HintKind }> = [];
  for (const hint of PROSE_CUES) {
    for (let i = text.indexOf(hint); i !== -1; i = text.indexOf(hint, i + hint.length)) {
      const kind: HintKind = FOREIGN_ASCII.has(hint) ? 'sentence' : PHRASE.has(hint) ? 'phrase' : CODES.has(hint) ? 'codes' : 'english';
      // A whole word: `passwords` is fine (the `s?` above), `tokenizer` and `mypassword_file` are not
      // this; a seed phrase's name may end a longer one (`walletMnemonic`, `HD_MNEMONIC`).
      if (kind !== 'phrase' && i > 0 && /[A-Za-z0-9_]/.test(text[i - 1]!)) continue;
      // A foreign word must end as a word too (`clave` is not `claves`… but `Passwortes` still is German).
      if (kind === 'sentence' && /[A-Za-z]/.test(text[i + hint.length] ?? '') && !/^(?:e?s|n|en)\b/.test(text.slice(i + hint.length, i + hint.length + 3))) continue;
      at.push({ end: i + hint.length, password: PROSE_ONLY.has(hint), kind });
    }
  }
  if (foreign) {
    const words = foreignWords();
    words.lastIndex = 0;
    for (let m = words.exec(text); m !== null; m = words.exec(text)) at.push({ end: m.index + m[0].length, password: true, kind: 'sentence' });
  }
  return at.sort((a, b) => a.end - b.end);
}

/** A range of the text to replace. */
interface Span {
  start: number;
  end: number;
}

// Where the sentence a hint opens ends: a line break, or `.` `!` `?` before a space or the end, or their full-width forms.
const sentenceEnds = lazyPattern(String.raw`\n|[.!?](?=\s|$)|[。！？]`, 'g');
const SENTENCE_MAX = 200;
// A quoted value (French guillemets, German and English curly quotes, CJK corner brackets, plain
// quotes that start and end outside a word: `l'utiliser` is no quote).
// Built on first use, as all of these: created at load, the patterns of this file with Unicode
// classes took the module's load from 0.75 to 2.1 ms (1.1 ms now), paid by every hook for
// sentences most sessions never hold.
const quotedValues = lazyPattern(String.raw`«\s*([^»\n]{3,120}?)\s*»|„([^“”\n]{3,120}?)[“”]|“([^”\n]{3,120}?)”|「([^」\n]{3,120}?)」|『([^』\n]{3,120}?)』|(?<![\p{L}\p{N}])"([^"\n]{3,120}?)"(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])'([^'\n]{3,120}?)'(?![\p{L}\p{N}])`, 'gu');
// A bare value: a run of anything but spaces, quotes, brackets, list punctuation, and the letters
// of scripts written without spaces (a CJK or kana connector such as 是 or は sits right against it).
const bareValues = lazyPattern(String.raw`[^\s«»"'“”„「」『』()（）\[\]{}<>,，;；：、。！？\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]+`, 'gu');

/** True when a word of a sentence in any language cannot be an ordinary word: letters with digits, a sign inside it, a capital after a lower-case letter (`RioPiedra`; `Staging-DB` is a word). */
function looksSecretInAnyLanguage(value: string): boolean {
  return (digitIn().test(value) && letterIn().test(value)) || signIn().test(value.slice(0, -1)) || camelIn().test(value);
}
const digitIn = lazyPattern(String.raw`\p{N}`, 'u');
const letterIn = lazyPattern(String.raw`\p{L}`, 'u');
const signIn = lazyPattern(String.raw`[^\p{L}\p{N}'’-]`, 'u');
const camelIn = lazyPattern(String.raw`\p{Ll}\p{Lu}`, 'u');

/** The end of the sentence that starts at `from` (sentenceEnds), at most SENTENCE_MAX characters on. */
function sentenceEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + SENTENCE_MAX);
  const SENTENCE_END = sentenceEnds();
  SENTENCE_END.lastIndex = from;
  const m = SENTENCE_END.exec(text);
  return m === null || m.index > limit ? limit : m.index;
}

/** The values of the sentence after a password word of another language: every quoted one, every bare one that looksSecretInAnyLanguage. */
function sentenceSecrets(text: string, from: number): Span[] {
  const end = sentenceEnd(text, from);
  const window = text.slice(from, end);
  const spans: Span[] = [];
  const quoted: Span[] = [];
  const QUOTED = quotedValues();
  QUOTED.lastIndex = 0;
  for (let m = QUOTED.exec(window); m !== null; m = QUOTED.exec(window)) {
    const value = m.slice(1).find((g) => g !== undefined)!;
    const start = from + m.index + m[0].indexOf(value);
    quoted.push({ start: from + m.index, end: from + m.index + m[0].length });
    if (!isPlaceholderValue(value.trim())) spans.push({ start, end: start + value.length });
  }
  const BARE = bareValues();
  BARE.lastIndex = 0;
  for (let m = BARE.exec(window); m !== null; m = BARE.exec(window)) {
    const value = m[0].replace(/[.:!?]+$/, '');
    const start = from + m.index;
    if (value.length < 4 || quoted.some((q) => start >= q.start && start < q.end)) continue;
    if (isPlaceholderValue(value) || !looksSecretInAnyLanguage(value)) continue;
    spans.push({ start, end: start + value.length });
  }
  return spans;
}

// A seed phrase: twelve or more lower-case words in a row (BIP39 has 12 to 24 words of 3–8
// letters; other wallets' lists have longer ones). A sentence about mnemonics holds words no
// wordlist has (proseGlue), so it is not one.
const wordRuns = lazyPattern(String.raw`(?:\b[a-z]{3,12}\b[ \t]*){12,}`, 'y');
const proseGlue = lazyPattern(String.raw`\b(?:the|and|that|this|with|from|are|was|were|which|into|then|than|should|would|could|when|where)\b`, '');

/** The run of words a seed phrase cue introduces, within the next 80 characters (a quote, `is:`, `=`). */
function wordRun(text: string, from: number): Span[] {
  const limit = Math.min(text.length, from + 80);
  for (let i = from; i < limit; i++) {
    if (!/[a-z]/.test(text[i]!) || /[a-z]/.test(text[i - 1] ?? '')) continue;
    const run = wordRuns();
    run.lastIndex = i;
    const m = run.exec(text);
    if (m !== null && !proseGlue().test(m[0])) return [{ start: i, end: i + m[0].trimEnd().length }];
  }
  return [];
}

// A one-time code: groups of letters and digits (`ay4bq-za9jy`, `wauva-tdxbd`), or one run with a digit (`83920471`, `k3j9dx8m`).
const codes = lazyPattern(String.raw`(?<![\w-])(?:[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{3,12}){1,3}|(?=[A-Za-z]*\d)[A-Za-z0-9]{6,16})(?![\w-])`, 'g');
const CODE_LIST_MAX = 600;

/** The codes listed after a recovery-code cue, up to a blank line or CODE_LIST_MAX characters. */
function codeList(text: string, from: number): Span[] {
  const blank = text.indexOf('\n\n', from);
  const end = Math.min(text.length, from + CODE_LIST_MAX, blank === -1 ? Infinity : blank);
  const spans: Span[] = [];
  const CODE = codes();
  CODE.lastIndex = from;
  for (let m = CODE.exec(text); m !== null && m.index < end; m = CODE.exec(text)) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}

/** Replaces a secret written in prose after a secret word, counting each as `prose-secret`; `foreign`: the text holds a password word in other letters (hasForeignCue). */
export function redactProseSecrets(text: string, tally: FindingTally, foreign: boolean): string {
  let out = '';
  let copied = 0;
  for (const { end, password, kind } of hintEnds(text, foreign)) {
    if (end < copied) continue;
    if (kind !== 'english') {
      const spans = kind === 'sentence' ? sentenceSecrets(text, end) : kind === 'phrase' ? wordRun(text, end) : codeList(text, end);
      for (const span of spans.sort((a, b) => a.start - b.start)) {
        if (span.start < copied || span.end <= span.start) continue;
        tally.add('prose-secret');
        out += text.slice(copied, span.start) + redactionMarker('prose-secret');
        copied = span.end;
      }
      continue;
    }
    AFTER_HINT.lastIndex = end;
    const m = AFTER_HINT.exec(text);
    const g = m?.groups;
    if (!m || !g) continue;
    if (!password && (g.plural !== '' || (g.connector !== undefined && g.connector.includes(':')))) continue;
    const value = (g.value as string).replace(/[.,;)]+$/, '');
    if (value.length < 3 || isPlaceholderValue(value) || STOPWORDS.has(value.toLowerCase()) || looksLikeCode(value, g.connector)) continue;
    if (g.direct !== undefined && !looksSecret(value)) continue;
    let valueEnd = end + m[0].length - ((g.value as string).length - value.length);
    const valueStart = valueEnd - value.length;
    // A quoted value of several words ("the passphrase is 'correct horse battery staple'") goes to its closing quote.
    const quote = text[valueStart - 1];
    if (quote === '"' || quote === "'" || quote === '`') {
      const close = text.indexOf(quote, valueStart);
      if (close !== -1 && close - valueStart <= 200 && !text.slice(valueStart, close).includes('\n')) valueEnd = close;
    }
    tally.add('prose-secret');
    out += text.slice(copied, valueStart) + redactionMarker('prose-secret');
    copied = valueEnd;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
