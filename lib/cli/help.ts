import { VERBS } from './verbs';

export { VERSION } from '../launch/version';

/** The widest line the help prints: a terminal's 100 columns. */
export const HELP_WIDTH = 100;

/** The verbs by task, in the order a new user meets them; every verb of VERBS sits in one group. */
export const VERB_GROUPS: ReadonlyArray<{ title: string; verbs: readonly string[] }> = [
  { title: 'set up and check', verbs: ['install', 'uninstall', 'doctor', 'init'] },
  { title: 'save and resume work', verbs: ['write', 'resume', 'status', 'render'] },
  { title: 'look at capsules and history', verbs: ['list', 'show', 'log', 'history', 'validate'] },
  { title: 'share with other machines', verbs: ['sync', 'git-hooks'] },
  { title: 'context budget', verbs: ['budget', 'statusline', 'supervise'] },
  { title: 'upkeep', verbs: ['compact', 'reindex'] },
];

/** The top-level help: the verbs grouped by task, each with its one-line summary, wrapped at HELP_WIDTH. */
export async function renderHelp(): Promise<string> {
  const lines = ['usage: git capsule <verb> [options]   (also: git-capsule <verb>)'];
  const indent = 2 + 12 + 1;
  for (const group of VERB_GROUPS) {
    lines.push('', `${group.title}:`);
    for (const name of group.verbs) {
      const verb = await VERBS[name]!();
      lines.push(...wrap(`  ${name.padEnd(12)} ${verb.summary}`, indent));
    }
  }
  lines.push(
    '',
    "'git capsule help <verb>' or 'git capsule <verb> -h': a verb's options; 'man git-capsule': all.",
    'Exit codes: 0 ok, 1 failure, 2 usage.',
  );
  return lines.join('\n') + '\n';
}

/** One line cut at word boundaries into lines of at most HELP_WIDTH, continuations indented. */
function wrap(line: string, indent: number): string[] {
  const out: string[] = [];
  let rest = line;
  while (rest.length > HELP_WIDTH) {
    const cut = rest.lastIndexOf(' ', HELP_WIDTH);
    if (cut <= indent) break;
    out.push(rest.slice(0, cut));
    rest = `${' '.repeat(indent)}${rest.slice(cut + 1)}`;
  }
  return [...out, rest];
}

/**
 * A verb's help within HELP_WIDTH: a longer line is cut at word boundaries and continues under
 * its own text (an option line under its description column, a synopsis under the verb).
 */
export function wrapHelp(text: string): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (line.length <= HELP_WIDTH) return [line];
      const column = /^(\s*-[^ ]*(?:,? -[^ ]*)*(?: <?[A-Z][A-Za-z.]*>?)?\s{2,})/.exec(line)?.[1]?.length ?? /^(\s*usage: git capsule \S+ |\s*)/.exec(line)![1]!.length;
      return wrap(line, Math.min(column, 40));
    })
    .join('\n');
}
