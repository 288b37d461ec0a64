import { parseCapsule } from '../../lib/capsule/parse';
import { MAX_YAML_DEPTH, MAX_YAML_LINE, MAX_YAML_LINES, MAX_YAML_NODES, prescreenYaml } from '../../lib/capsule/yaml-prescreen';
import { capsuleDoc } from '../support/capsule-doc';

// The YAML library's synchronous parse is the one place a small document can hold a hook past
// its budget (5,000 nested `[` cost it ~0.6 s; 20,000 abort the process out of memory). The
// pre-screen refuses such frontmatter before the library is loaded.
const frontmatter = (yaml: string) => `---\n${yaml}\n---\n`;

describe('prescreenYaml', () => {
  it.each([
    ['flow collections nested 5,000 deep', `objective: ${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['mappings in flow nested past the bound', `objective: ${'{a: '.repeat(MAX_YAML_DEPTH + 1)}1${'}'.repeat(MAX_YAML_DEPTH + 1)}`],
    ['block sequences nested past the bound on one line', `tags:\n${'- '.repeat(MAX_YAML_DEPTH + 1)}x`],
    ['a line over the bound', `objective: "${'y'.repeat(MAX_YAML_LINE + 1)}"\ntags: [a]`],
    ['more lines than the bound', `tags:\n${'  - t\n'.repeat(MAX_YAML_LINES + 1)}`],
    ['more flow items than the bound', `tags: [${'1,'.repeat(MAX_YAML_NODES + 1)}1]`],
  ])('refuses %s as YAML_TOO_COMPLEX, before the YAML library parses it', (_what, yaml) => {
    expect(prescreenYaml(yaml)?.code).toBe('YAML_TOO_COMPLEX');
    expect(parseCapsule(frontmatter(yaml)).problems.map((p) => p.code)).toEqual(['YAML_TOO_COMPLEX']);
  });

  it.each([
    ['an ordinary capsule', capsuleDoc({ tags: ['autosave', 'x'], success_criteria: ['a', 'b'] }).split('---\n')[1]!],
    ['brackets and commas inside quoted strings', `objective: "[[[[[[[[[[[[[[[[[[[[ , , , ]]"\ntags: ['a, b', "[c]"]`],
    ['a nested list at the bound', `tags: ${'['.repeat(MAX_YAML_DEPTH)}x${']'.repeat(MAX_YAML_DEPTH)}`],
  ])('lets %s through', (_what, yaml) => {
    expect(prescreenYaml(yaml)).toBeNull();
  });
});
