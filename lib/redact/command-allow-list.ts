import { isOpaqueToken, isPlainPart } from './opaque-tokens';

// The allow-list for a shell command that is kept (in a capsule, in the runtime state): what it
// runs stays (programs, sub-commands, flag names, operators, redirections), and of its argument
// values only those that cannot be a credential: a path whose segments are plain, a number, a
// variable reference, a short plain word. Every other value becomes ARG_MARKER, whatever tool it
// is given to: the deny-list names the tools it knows (command-credentials.ts), this needs none.

/** What replaces an argument value the allow-list does not keep. */
export const ARG_MARKER = '[ARG]';

const NUMBER = /^[+-]?\d+(?:[.:]\d+)*[A-Za-z%]{0,3}$/;
const VARIABLE = /^\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*|\d|[@*#?$!])$/;
const SHORT_WORD = /^[A-Za-z0-9_@][A-Za-z0-9._@^~+:-]{0,23}$/;
// A path segment: file-name characters only (no `%`, `:`, `,`, `!`), globs allowed.
const PATH_SEGMENT = /^[A-Za-z0-9._@*?+~-]*$/;
const URL = /^(?<scheme>[a-z][a-z0-9+.-]*:\/\/)(?:(?<user>[^@/?#\s]*)@)?(?<host>[A-Za-z0-9.-]+(?::\d+)?)?(?<path>\/[^?#\s]*)?(?<rest>[?#].*)?$/;

/** True when a short word's parts are all plain (`deployer`, `main`, `feature-x`, `v1.2.3`; not `E12CM8S6GU2303GMXJ`). */
function isShortWord(value: string): boolean {
  return SHORT_WORD.test(value) && value.split(/[._@^~+:-]+/).every(isPlainPart) && !isOpaqueToken(value);
}

/** True when a value is a path whose every segment is plain (`src/app.ts`, `./dist/*`, `~/.npmrc`, `/tmp/out.log`). */
function isPlainPath(value: string): boolean {
  if (!value.includes('/') && !/^[.~]/.test(value) && !/\.[A-Za-z0-9]{1,8}$/.test(value)) return false;
  return value.split('/').every((s) => PATH_SEGMENT.test(s) && !isOpaqueToken(s) && s.split(/[._+~-]+/).every((p) => p === '' || isPlainPart(p) || p === '*' || p === '**'));
}

/**
 * One argument value as kept: itself when it is a number, a variable reference, a short plain
 * word or a plain path; a URL without its user information and query; `name=` and `--flag=`
 * with the value judged; else ARG_MARKER.
 */
export function allowListValue(value: string): string {
  if (value === '' || value === '-' || value === '--' || NUMBER.test(value) || VARIABLE.test(value)) return value;
  if (isShortWord(value) || isPlainPath(value)) return value;
  const url = URL.exec(value);
  if (url?.groups !== undefined) {
    const { scheme, user, host, path, rest } = url.groups;
    const keptPath = path === undefined ? '' : isPlainPath(path) ? path : `/${ARG_MARKER}`;
    return `${scheme}${user === undefined ? '' : `${ARG_MARKER}@`}${host ?? ''}${keptPath}${rest === undefined ? '' : `${rest[0]}${ARG_MARKER}`}`;
  }
  const eq = /^(-{0,2}[A-Za-z_][A-Za-z0-9_.-]{0,60})=(.*)$/s.exec(value);
  if (eq !== null && !isOpaqueToken(eq[1]!) && eq[1]!.split(/[._-]+/).every((p) => p === '' || isPlainPart(p))) return `${eq[1]}=${allowListValue(eq[2]!)}`;
  return ARG_MARKER;
}

/** A flag as kept: its name; an attached value (`-pSECRET`, `--token=X`) judged like any value. */
function allowListFlag(word: string): string {
  if (word === '-' || word === '--' || /^--[A-Za-z0-9][A-Za-z0-9-]*$/.test(word)) return word;
  const long = /^(--?[A-Za-z0-9][A-Za-z0-9-]*)=(.*)$/s.exec(word);
  if (long !== null) return `${long[1]}=${allowListValue(long[2]!)}`;
  // Short flags bundled (`-rf`, `-Bbn`, `-lc`) are letters; `-p<password>` is not.
  if (/^-[A-Za-z]{1,4}$/.test(word) || /^-\d+$/.test(word)) return word;
  return /^-[A-Za-z]/.test(word) ? `${word.slice(0, 2)}${ARG_MARKER}` : ARG_MARKER;
}

/** A shell word as kept: an operator or redirection as it is, a flag by allowListFlag, any other value by allowListValue. */
function allowListWord(word: string, quoted: boolean): string {
  if (!quoted && /^(?:\d?[<>]{1,2}&?\d?|<<<|[|&;]{1,2}|\(|\))$/.test(word)) return word;
  if (/^<<-?[A-Za-z_][A-Za-z0-9_]*$/.test(word)) return word;
  const redirect = quoted ? null : /^(\d?>{1,2}|<)(.+)$/s.exec(word);
  if (redirect !== null) return `${redirect[1]}${allowListValue(redirect[2]!)}`;
  if (!quoted && word.startsWith('-')) return allowListFlag(word);
  return allowListValue(word);
}

// A heredoc: its body is data (a file being written, a SQL script), kept as one marker.
const HEREDOC = /<<-?[ \t]*(["']?)([A-Za-z_][A-Za-z0-9_]*)\1[^\n]*\n/g;

function withoutHeredocBodies(command: string): string {
  let out = '';
  let copied = 0;
  HEREDOC.lastIndex = 0;
  for (let m = HEREDOC.exec(command); m !== null; m = HEREDOC.exec(command)) {
    const bodyStart = m.index + m[0].length;
    const end = new RegExp(`^[ \\t]*${m[2]}[ \\t]*$`, 'm');
    const rest = command.slice(bodyStart);
    const close = end.exec(rest);
    const bodyEnd = close === null ? command.length : bodyStart + close.index;
    out += `${command.slice(copied, bodyStart)}${ARG_MARKER}\n`;
    copied = bodyEnd;
    HEREDOC.lastIndex = bodyEnd;
    if (close === null) break;
  }
  return copied === 0 ? command : out + command.slice(copied);
}

/**
 * A shell command with every argument value the allow-list does not keep replaced by `[ARG]`:
 * programs, sub-commands, flag names, operators and redirections stay; values stay only when
 * they are numbers, variable references, short plain words or plain paths (a URL keeps its
 * scheme, host and plain path). Quoting is read, not kept: a quoted value with spaces is one
 * value. Heredoc bodies become one `[ARG]`. Linear in the command; never throws.
 *
 * @example allowListCommand("echo 'Tr0ub4dor&3xx' | sudo -S systemctl restart nginx") // 'echo [ARG] | sudo -S systemctl restart nginx'
 */
export function allowListCommand(command: string): string {
  const text = withoutHeredocBodies(command);
  const out: string[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  const flush = () => {
    if (inWord) out.push(allowListWord(word, quoted));
    word = '';
    inWord = false;
    quoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      const close = text.indexOf(ch, i + 1);
      const stop = close === -1 ? text.length : close;
      word += text.slice(i + 1, stop);
      inWord = true;
      quoted = true;
      i = stop;
    } else if (ch === '\\' && i + 1 < text.length) {
      // A backslash-newline joins lines: the word goes on (a value wrapped over two lines stays one value).
      if (text[i + 1] !== '\n') word += text[i + 1];
      inWord = true;
      i++;
    } else if (ch === ' ' || ch === '\t') flush();
    else if (ch === '\n') {
      flush();
      out.push('\n');
    } else if (ch === '&' && word.endsWith('>')) {
      word += ch; // `2>&1`
    } else if (ch === ';' || ch === '|' || ch === '&' || ch === '(' || ch === ')') {
      flush();
      let op = ch;
      while (i + 1 < text.length && op.length < 2 && (text[i + 1] === '|' || text[i + 1] === '&') && (ch === '|' || ch === '&')) op += text[++i];
      out.push(op);
    } else {
      word += ch;
      inWord = true;
    }
  }
  flush();
  return out.join(' ').replace(/ ?\n ?/g, '\n');
}

/**
 * An argument vector as kept: a shell's `-c` / `-lc` script by allowListCommand, any other word
 * like a word of a command line (the program, flags, values judged).
 *
 * @example allowListArgv(['/bin/bash', '-lc', 'mysql -pS3cr3t!x db']) // ['/bin/bash', '-lc', 'mysql -p[ARG] db']
 */
export function allowListArgv(argv: readonly string[]): string[] {
  if (argv.length === 3 && /(?:^|\/)(?:ba|z|da|k)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return [argv[0]!, argv[1]!, allowListCommand(argv[2]!)];
  return argv.map((word) => allowListWord(word, /\s/.test(word)));
}
