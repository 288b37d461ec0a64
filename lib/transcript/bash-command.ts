/** What a shell command evidently does to the work state, read from its text alone. */
export interface BashEffects {
  /** Files the command evidently writes: redirect targets, tee, sed -i, mv/cp targets, touch, rm. */
  written: string[];
  /** The git sub-commands that change or publish history (commit, push, checkout, merge…), as written. */
  git: string[];
  /** Commands that change the environment (cd, export, package installs), as written. */
  environment: string[];
}

const GIT_OPS = new Set([
  'commit', 'push', 'pull', 'checkout', 'switch', 'merge', 'rebase', 'reset', 'revert',
  'cherry-pick', 'tag', 'stash', 'branch', 'fetch', 'clone', 'init', 'am', 'restore',
]);
const INSTALLERS = /^(?:npm|pnpm|yarn|bun)\s+(?:i|install|add|ci|remove|uninstall)\b|^(?:pip3?|uv\s+pip)\s+install\b|^(?:apt|apt-get|brew|dnf|yum|apk)\s+(?:install|add|remove)\b|^cargo\s+(?:add|install)\b|^go\s+(?:get|install)\b/;

/**
 * Splits a shell command into simple commands and reads their evident effects. It is a
 * heuristic over text (no shell is run): quoting is honoured, expansions are not.
 */
export function analyseBashCommand(command: string): BashEffects {
  const effects: BashEffects = { written: [], git: [], environment: [] };
  // A heredoc's body is data: the redirect and the command that read it come first (16 KiB is plenty).
  for (const segment of splitCommands(command.slice(0, 16 * 1024))) {
    const words = segment.words;
    collectRedirects(words, effects.written);
    const argv = commandWords(words);
    const [cmd, ...args] = argv;
    if (cmd === undefined) continue;
    const operands = args.filter((a) => !a.startsWith('-'));
    if (cmd === 'tee') effects.written.push(...operands);
    else if (cmd === 'sed' && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) {
      const last = operands[operands.length - 1];
      if (last !== undefined && operands.length >= 2) effects.written.push(last);
    } else if ((cmd === 'mv' || cmd === 'cp') && operands.length >= 2) effects.written.push(operands[operands.length - 1]!);
    else if (cmd === 'touch' || cmd === 'rm') effects.written.push(...operands);
    else if (cmd === 'git') {
      const op = gitSubcommand(args);
      if (op !== undefined && GIT_OPS.has(op)) effects.git.push(segment.text);
    } else if (cmd === 'cd' || cmd === 'export' || cmd === 'source' || cmd === '.') effects.environment.push(segment.text);
    else if (INSTALLERS.test(argv.join(' '))) effects.environment.push(segment.text);
  }
  effects.written = [...new Set(effects.written.filter((f) => f !== '' && !f.startsWith('/dev/') && !f.startsWith('&')))];
  return effects;
}

/** One simple command of a command line. */
export interface Segment {
  text: string;
  /** Its words, quotes removed; redirections kept as words (`>`, `>>`) with their targets. */
  words: string[];
  /** True when a single `|` feeds it the previous command's output. */
  piped: boolean;
}

/**
 * Splits a command line into simple commands: operators (&&, ||, ;, |, newline) end one. Linear;
 * quoting is honoured, expansions are not.
 */
export function splitCommands(command: string): Segment[] {
  const segments: Segment[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let start = 0;
  let piped = false;
  const flushWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const flushSegment = (end: number) => {
    flushWord();
    if (words.length > 0) segments.push({ text: command.slice(start, end).trim(), words, piped });
    words = [];
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (ch === "'" || ch === '"') {
      const close = command.indexOf(ch, i + 1);
      const stop = close === -1 ? command.length : close;
      word += command.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (ch === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (ch === ';' || ch === '\n' || ch === '|' || (ch === '&' && command[i + 1] === '&')) {
      flushSegment(i);
      piped = ch === '|' && command[i + 1] !== '|';
      if ((ch === '|' || ch === '&') && command[i + 1] === ch) i++;
      start = i + 1;
    } else if (ch === ' ' || ch === '\t') flushWord();
    else if (ch === '>') {
      // `2>` and `2>>` redirect a descriptor: the digit is not a word.
      if (/^\d$/.test(word)) {
        word = '';
        inWord = false;
      } else flushWord();
      const append = command[i + 1] === '>';
      words.push(append ? '>>' : '>');
      if (append) i++;
    } else {
      word += ch;
      inWord = true;
    }
  }
  flushSegment(command.length);
  return segments;
}

function isRedirect(word: string): boolean {
  return word === '>' || word === '>>';
}

function collectRedirects(words: string[], into: string[]): void {
  for (let i = 0; i < words.length - 1; i++) {
    if (isRedirect(words[i]!) && !words[i + 1]!.startsWith('&')) into.push(words[i + 1]!);
  }
}

/**
 * A simple command's own words: redirections and their targets, leading VAR=value assignments
 * and sudo/env/command prefixes dropped.
 */
export function commandWords(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (isRedirect(words[i]!)) i++;
    else out.push(words[i]!);
  }
  while (out.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(out[0]!)) out.shift();
  while (out[0] === 'sudo' || out[0] === 'env' || out[0] === 'command') out.shift();
  return out;
}

// `git -C dir -c k=v commit …` → commit
function gitSubcommand(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C' || a === '-c' || a === '--git-dir' || a === '--work-tree') i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}
