import { VERBS } from './verbs';

/**
 * `git capsule --help` is `git help capsule` to git, which opens `man git-capsule`. This renders
 * that page from the same summaries and usage texts `git capsule help <verb>` prints, so the two
 * never disagree. The build writes it to man/man1/git-capsule.1 (scripts/build.mjs); man finds it
 * there through PATH (bin/ is beside man/), and npm links it on a global install.
 */
export async function renderManPage(version: string): Promise<string> {
  const names = Object.keys(VERBS).sort();
  const out: string[] = [
    `.TH GIT-CAPSULE 1 "" "git-capsule ${roff(version)}" "git-capsule manual"`,
    '.SH NAME',
    'git-capsule \\- keep an AI coding session\'s work state on an orphan branch of the repository',
    '.SH SYNOPSIS',
    '.B git capsule',
    '.I verb',
    '[\\fIoptions\\fR]',
    '.br',
    '.B git capsule help',
    '[\\fIverb\\fR]',
    '.br',
    '.B git capsule',
    '.I verb',
    '.B \\-h',
    '.SH DESCRIPTION',
    ...paragraph(
      'Capsules are markdown documents with schema-validated YAML frontmatter (objective, waiting_on, ' +
        'next_valid_action, status, ...) committed on the memory branch (git config capsule.ref, default ' +
        'refs/heads/capsules). Claude Code hooks write them (an autosave on every Stop, a checkpoint before ' +
        'compaction) and hand the newest one back after /clear or compaction, as data below a fixed procedure.',
    ),
    ...paragraph("Every verb prints its options with 'git capsule help <verb>' or 'git capsule <verb> -h'; every reading verb takes --json; --no-color turns colour off."),
    '.SH VERBS',
  ];
  for (const name of names) {
    const verb = await VERBS[name]!();
    out.push('.SS', `.B ${roff(name)}`, roff(verb.summary), '.PP', '.nf', '.RS 4', ...verb.usage.trimEnd().split('\n').map(literalLine), '.RE', '.fi');
  }
  out.push(
    '.SH EXIT STATUS',
    '0 ok, 1 failure, 2 usage error.',
    '.SH ENVIRONMENT',
    '.TP',
    '.B CAPSULE_DISABLED',
    'set to anything: every hook passes through untouched',
    '.TP',
    '.B CAPSULE_STATE_DIR',
    'where the runtime state lives (default: capsule/ in the git common dir)',
    '.TP',
    '.B NO_COLOR',
    'set and not empty: no colour, even on a terminal (as --no-color, which every verb takes)',
    '.TP',
    '.B CAPSULE_DEBUG',
    "set: print git's whole message and the stack of an error",
    '.SH SEE ALSO',
    'The reference pages in the docs/ folder of the git-capsule repository: cli.md, format.md, hooks.md, sync.md, security.md, performance.md, errors.md.',
  );
  return `${out.join('\n')}\n`;
}

/** Text in a roff body: backslashes escaped, hyphens as minus signs, non-ASCII as \\[uXXXX] (troff reads bytes). */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** A line inside .nf: escaped, and guarded when it starts like a request (. or '). */
function literalLine(line: string): string {
  const escaped = roff(line);
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped === '' ? '' : escaped;
}

function paragraph(text: string): string[] {
  return ['.PP', roff(text)];
}
