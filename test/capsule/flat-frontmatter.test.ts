import { parseDocument } from 'yaml';
import { parseFlatFrontmatter } from '../../lib/capsule/flat-frontmatter';
import { parseFrontmatterYaml } from '../../lib/capsule/frontmatter';
import { dice } from '../support/seeded-random';

/** What the YAML library makes of `yaml` with the options parseFrontmatterYaml uses, or null when it refuses. */
function library(yaml: string): unknown {
  const doc = parseDocument(yaml, { schema: 'core', uniqueKeys: true, prettyErrors: false, strict: true });
  return doc.errors.length > 0 ? null : doc.toJS();
}

// Values chosen to sit on every edge of the subset: YAML types, comments, mapping colons, quotes, escapes.
const VALUES = [
  'plain words', '2026-11-29T21:00:00Z', '2026-11-29T21:00:00+01:00', '2026-11-29', '12:30', 'a:b', 'a: b', 'a:', 'http://x/y',
  'null', 'Null', '~', 'true', 'False', 'yes', 'no', 'on', '0', '-1', '+1', '1.5', '1e3', '.5', '0x1F', '0o17', '.inf', '.nan', '007',
  'a # b', 'a #b', '#a', '- a', 'a - b', '-a', '&a', '*a', '!a', '%a', '@a', '`a', '[a]', '{a}', 'a,b', "'a'", '"a"', '"a\\nb"',
  '"a \\" b"', '"a # b"', '"a: b"', '"caf\u00e9"', '"\u{1F600}"', '"\u0085"', '"\u007f"', '"\ufeff"', '"a\tb"', '""', "''", 'a  b',
  'a ', ' a', '"a" b', '"a"b"', 'x'.repeat(300), 'fix the flaky test', '01JDQ6Z8W1N9V3C5Q7R2000001', 'a/b+c.d_e-f',
];
const KEYS = ['id', 'objective', 'status', 'created_at', 'null', 'true', 'True', 'a-b', '__proto__', 'x1', '_k', 'Key', 'k k'];

describe('parseFlatFrontmatter', () => {
  it('agrees with the YAML library wherever it answers, on generated frontmatter (seed 20261129)', () => {
    const d = dice(20261129);
    let answered = 0;
    for (let i = 0; i < 12000; i += 1) {
      const lines = Array.from({ length: 1 + d.int(5) }, () => `${d.pick(KEYS)}:${d.chance(0.05) ? '  ' : ' '}${d.pick(VALUES)}`);
      const yaml = `${lines.join('\n')}\n${d.chance(0.03) ? '\n' : ''}`;
      const flat = parseFlatFrontmatter(yaml);
      if (flat === null) continue;
      answered += 1;
      expect({ yaml, value: flat }).toEqual({ yaml, value: library(yaml) });
    }
    expect(answered).toBeGreaterThan(300);
  });

  it('reads a flat mapping of strings, plain and double-quoted', () => {
    expect(parseFlatFrontmatter('id: 01JDQ6Z8W1N9V3C5Q7R2000001\nobjective: "fix it: now"\ncreated_at: 2026-11-29T21:00:00Z\n')).toEqual({
      id: '01JDQ6Z8W1N9V3C5Q7R2000001',
      objective: 'fix it: now',
      created_at: '2026-11-29T21:00:00Z',
    });
  });

  it('leaves everything else to the YAML library: types, nesting, escapes, duplicates, comments', () => {
    for (const yaml of ['n: 1\n', 'a: null\n', 'a: true\n', 'a:\n  - x\n', 'a: "x\\ny"\n', 'a: x\na: y\n', '# c\na: x\n', 'a: x # c\n', 'a: x', '', '__proto__: x\n']) {
      expect(parseFlatFrontmatter(yaml)).toBeNull();
    }
  });
});

describe('parseFrontmatterYaml', () => {
  it('still refuses a duplicate key the flat reader leaves to the library', () => {
    expect(parseFrontmatterYaml('a: x\na: y\n').problems.map((p) => p.code)).toEqual(['YAML_DUPLICATE_KEY']);
  });
});
