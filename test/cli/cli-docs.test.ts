import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERBS } from '../../lib/cli/verbs';

// docs/cli.md is the CLI reference a user reads; each verb's `usage` is the help it prints.
// They must name the same verbs and the same flags, and the usage must name exactly the flags
// the verb's parser accepts (read from its source, where parseVerbArgs gets them).
const ROOT = join(__dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');

/** Every `--flag` in a text, except the `--help` every verb takes. */
function flagsIn(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!).filter((f) => f !== 'help'));
}

/** The doc's `## <verb> …` sections, joined per verb (`history list` and `history read` are one verb). */
function docSections(): Map<string, { text: string; synopsis: string }> {
  const sections = new Map<string, { text: string; synopsis: string }>();
  for (const part of DOC.split(/^(?=## )/m).slice(1)) {
    const verb = /^## (\S+)/.exec(part)![1]!;
    // The synopsis: the code block right under the heading.
    const synopsis = /^## [^\n]*\n\n```[a-z]*\n([\s\S]*?)```/.exec(part)?.[1] ?? '';
    const prev = sections.get(verb) ?? { text: '', synopsis: '' };
    sections.set(verb, { text: prev.text + part, synopsis: prev.synopsis + synopsis });
  }
  return sections;
}

/** The option names a verb's source hands to parseVerbArgs (`name: { type: … }`). */
function parserFlags(verb: string): Set<string> {
  const source = readFileSync(join(ROOT, 'lib', 'cli', 'verbs', `${verb}.ts`), 'utf8');
  const named = [...source.matchAll(/(?:'([a-z][a-z0-9-]*)'|\b([a-z][a-zA-Z0-9]*)):\s*\{\s*type:\s*'(?:string|boolean)'/g)].map((m) => m[1] ?? m[2]!);
  // The shared `--limit` / `-n` option (lib/cli/args.ts) is spread in.
  return new Set([...named, ...(source.includes('...LIMIT_OPTION') ? ['limit'] : [])]);
}

/** A synopsis line up to its ` -- `: what follows belongs to the command a verb runs (supervise). */
const ownPart = (line: string) => line.split(' -- ')[0]!;

/** The flags a usage text offers: those on its synopsis lines and those opening an option line. */
function usageFlags(usage: string): Set<string> {
  // An option line opens with its flag, or with its short form first (`-n, --limit`).
  const option = /^\s+(?:-[a-z], )?(--[a-z][a-z0-9-]*)/;
  const lines = usage.split('\n').filter((l) => /^\s*(usage: )?git capsule /.test(l) || option.test(l));
  return flagsIn(lines.map((l) => option.exec(l)?.[1] ?? ownPart(l)).join('\n'));
}

const sorted = (s: Set<string>) => [...s].sort();
const sections = docSections();

describe('docs/cli.md', () => {
  it('has one section for every verb and no section for a verb that does not exist', () => {
    expect(sorted(new Set(sections.keys()))).toEqual(Object.keys(VERBS).sort());
  });

  it('opens every verb section with a synopsis code block', () => {
    const without = [...sections].filter(([, s]) => !s.synopsis.includes('git capsule ')).map(([v]) => v);
    expect(without).toEqual([]);
  });

  describe.each(Object.keys(VERBS).sort())('%s', (name) => {
    it("documents every flag of the verb's usage, and its synopsis names no flag the usage lacks", async () => {
      const usage = usageFlags((await VERBS[name]!()).usage);
      const section = sections.get(name) ?? { text: '', synopsis: '' };
      const documented = flagsIn(section.text);
      expect(sorted(usage).filter((f) => !documented.has(f))).toEqual([]);
      expect(sorted(flagsIn(section.synopsis.split('\n').map(ownPart).join('\n'))).filter((f) => !usage.has(f))).toEqual([]);
    });

    it('has a usage naming exactly the flags its parser accepts', async () => {
      expect(sorted(usageFlags((await VERBS[name]!()).usage))).toEqual(sorted(parserFlags(name)));
    });
  });
});
