import { isDeepStrictEqual } from 'node:util';
import { Document, parseDocument } from 'yaml';
import { parseFlatFrontmatter, renderFlatFrontmatter } from '../../lib/capsule/flat-frontmatter';
import { parseFrontmatterYaml } from '../../lib/capsule/frontmatter';
import { dice } from '../support/seeded-random';

/** What the YAML library makes of `yaml` with the options parseFrontmatterYaml uses, or null when it refuses. */
function libraryParse(yaml: string): unknown {
  const doc = parseDocument(yaml, { schema: 'core', uniqueKeys: true, prettyErrors: false, strict: true });
  return doc.errors.length > 0 ? null : doc.toJS();
}

/** What renderCapsule has the YAML library write. */
function libraryRender(fields: Record<string, unknown>): string {
  return new Document(fields).toString({ lineWidth: 0, minContentWidth: 0 });
}

/**
 * `expect(actual).toEqual(expected)`, with the usual equal case settled by node's strict deep
 * equality first (strictly equal implies toEqual-equal): the matcher costs about as much as the
 * libraries it checks, tens of thousands of times per file. Unequal: the matcher decides and reports.
 */
function expectEqual(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}

// Values chosen to sit on every edge of the subset: YAML types, comments, mapping colons, quotes, escapes, document markers.
const VALUES = [
  'plain words', '2026-11-29T21:00:00Z', '2026-11-29T21:00:00+01:00', '2026-11-29', '12:30', 'a:b', 'a: b', 'a:', 'http://x/y',
  'null', 'Null', '~', 'true', 'False', 'yes', 'no', 'on', '0', '-1', '+1', '1.5', '1e3', '.5', '0x1F', '0o17', '.inf', '.nan', '007',
  'a # b', 'a #b', '#a', '- a', 'a - b', '-a', '&a', '*a', '!a', '%a', '@a', '`a', '[a]', '{a}', 'a,b', "'a'", '"a"', '"a\\nb"',
  '"a \\" b"', '"a # b"', '"a: b"', '"caf\u00e9"', '"\u{1F600}"', '"\u0085"', '"\u007f"', '"\ufeff"', '"a\tb"', '""', "''", 'a  b',
  'a ', ' a', '"a" b', '"a"b"', 'x'.repeat(300), 'fix the flaky test', '01JDQ6Z8W1N9V3C5Q7R2000001', 'a/b+c.d_e-f',
  "'it''s'", "'a\\b'", "'say \"hi\"'", "''''", '"say \\"hi\\""', '"a\\\\b"', '"\\x41"', '"\\u0041"', 'a#b', 'a\\b', 'caf\u00e9 au lait',
  'x\u00a0y', 'x\u2028y', '(paren) x', 'unknown (autosave could not determine)', 'issue #12', 'a\tb', '---x', '...', '%x', 'x ---',
  '-.5', '+.inf', '.NaN', '1_000', '0b101', '0o18', '0x1G', '1.', '+12', 'TRUE', 'tRUE', 'NULL', 'nULL', 'a{b}', 'a [b]', 'a |b', 'a:: b',
];
const KEYS = ['id', 'objective', 'status', 'created_at', 'null', 'true', 'True', 'a-b', '__proto__', 'x1', '_k', 'Key', 'k k'];
// Characters near every quoting rule, for the renderer's generated strings.
const CHARS = ['a', 'Z', '0', '9', ' ', ' ', ':', '#', "'", '"', '\\', '-', '?', '.', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '%', '@', '`', '\t', '\n', '\u00e9', '\u00a0', '\u0085', '\u2028', '\ufeff', '\u{1F600}', '\u007f', '~', '+', '_', '/'];

describe('parseFlatFrontmatter', () => {
  it('agrees with the YAML library wherever it answers, on generated frontmatter (seed 20261129)', () => {
    const d = dice(20261129);
    let answered = 0;
    for (let i = 0; i < 12000; i += 1) {
      const lines = Array.from({ length: 1 + d.int(5) }, () =>
        d.chance(0.15) ? `${d.pick(KEYS)}:\n${Array.from({ length: d.int(3) }, () => `${d.chance(0.05) ? ' ' : '  '}- ${d.pick(VALUES)}`).join('\n')}` : `${d.pick(KEYS)}:${d.chance(0.05) ? '  ' : ' '}${d.pick(VALUES)}`,
      );
      const yaml = `${lines.join('\n').replace(/\n+/g, '\n')}\n${d.chance(0.03) ? '\n' : ''}`;
      const flat = parseFlatFrontmatter(yaml);
      if (flat === null) continue;
      answered += 1;
      expectEqual({ yaml, value: flat }, { yaml, value: libraryParse(yaml) });
    }
    expect(answered).toBeGreaterThan(300);
  });

  it('reads a flat mapping of strings, plain and quoted, and lists of them', () => {
    expect(parseFlatFrontmatter("id: 01JDQ6Z8W1N9V3C5Q7R2000001\nobjective: \"fix it: now\"\nnext_valid_action: 'run \"npm test\"'\ncreated_at: 2026-11-29T21:00:00Z\ntags:\n  - autosave\n")).toEqual({
      id: '01JDQ6Z8W1N9V3C5Q7R2000001',
      objective: 'fix it: now',
      next_valid_action: 'run "npm test"',
      created_at: '2026-11-29T21:00:00Z',
      tags: ['autosave'],
    });
  });

  it('leaves everything else to the YAML library: types, nesting, escapes, duplicates, comments', () => {
    for (const yaml of ['n: 1\n', 'a: null\n', 'a: true\n', 'a:\n', 'a:\n  b: c\n', 'a: "x\\ny"\n', 'a: x\na: y\n', '# c\na: x\n', 'a: x # c\n', 'a: x', '', '__proto__: x\n']) {
      expect(parseFlatFrontmatter(yaml)).toBeNull();
    }
  });
});

describe('renderFlatFrontmatter', () => {
  it('writes byte for byte what the YAML library writes wherever it answers, and reads back to the same fields (seed 1129)', () => {
    const d = dice(1129);
    const text = () => (d.chance(0.4) ? d.pick(VALUES) : Array.from({ length: 1 + d.int(8) }, () => d.pick(CHARS)).join(''));
    let answered = 0;
    for (let i = 0; i < 12000; i += 1) {
      const fields: Record<string, unknown> = {};
      for (let k = 0; k < 1 + d.int(5); k += 1) {
        const key = d.pick([...KEYS.filter((k) => k !== '__proto__'), 'tags', 'files', 'repo_head']);
        fields[key] = d.chance(0.2) ? Array.from({ length: d.int(3) }, text) : d.chance(0.05) ? d.pick([1, null, true, { a: 'b' }]) : text();
      }
      const flat = renderFlatFrontmatter(fields);
      if (flat === null) continue;
      answered += 1;
      expectEqual({ fields, text: flat }, { fields, text: libraryRender(fields) });
      const back = parseFlatFrontmatter(flat);
      if (back !== null) expectEqual({ flat, back }, { flat, back: fields });
    }
    expect(answered).toBeGreaterThan(1000);
  });

  it("writes the renderer's usual capsule frontmatter, quoting only where the library does", () => {
    expect(renderFlatFrontmatter({ id: '01JDQ6Z8W1N9V3C5Q7R2000001', objective: 'fix: the parser', next_valid_action: 'No action; "npm test": red', status: 'active', tags: ['autosave'] })).toBe(
      'id: 01JDQ6Z8W1N9V3C5Q7R2000001\nobjective: "fix: the parser"\nnext_valid_action: \'No action; "npm test": red\'\nstatus: active\ntags:\n  - autosave\n',
    );
  });

  it('leaves numbers, nulls, nesting, empty values and multi-line text to the library', () => {
    for (const fields of [{ a: 1 }, { a: null }, { a: { b: 'c' } }, { a: '' }, { a: [] }, { a: 'x\ny' }, {}, { A: 'x' }]) expect(renderFlatFrontmatter(fields)).toBeNull();
  });
});

describe('values that may read as numbers, nulls or bools', () => {
  // Digits, hex and octal letters, signs, dots and exponents: where the reader and the writer
  // decide without the core-schema pattern, the library is the judge (seed 20261202).
  const NUMBERISH = ['0', '1', '7', '9', 'a', 'f', 'F', 'g', 'e', 'E', 'o', 'O', 'x', 'X', '.', '+', '-', '_', ':', 'T', 'Z', 'n', 'N', 'i', 'I', 'u', 'l', '~', ' '];

  it('are read and written as the library reads and writes them (seed 20261202)', () => {
    const d = dice(20261202);
    let plain = 0;
    for (let i = 0; i < 20000; i += 1) {
      const value = Array.from({ length: 1 + d.int(7) }, () => d.pick(NUMBERISH)).join('');
      const flat = renderFlatFrontmatter({ v: value });
      if (flat !== null) {
        expectEqual({ value, text: flat }, { value, text: libraryRender({ v: value }) });
        if (flat === `v: ${value}\n`) plain += 1;
      }
      const read = parseFlatFrontmatter(`v: ${value}\n`);
      if (read !== null) expectEqual({ value, read }, { value, read: libraryParse(`v: ${value}\n`) });
    }
    expect(plain).toBeGreaterThan(1000);
  });

  it.each(['1e5', '1E-5', '0x1f', '0o17', '-.5', '+12', '.inf', '-.Inf', '.NaN', '~', 'Null', 'TRUE', 'false', '12.', '007'])('quotes %s, which the core schema reads as no string, and never reads it plain', (value) => {
    expect(renderFlatFrontmatter({ v: value })).toBe(`v: "${value}"\n`);
    expect(parseFlatFrontmatter(`v: ${value}\n`)).toBeNull();
  });

  it.each(['01M8THVTSX76HP4GJTZVQYD5HC', '5e55a000-0000-4000-8000-000000000001', '2026-12-02T04:58:02+00:00', '1e5x', '0x1g', '1-2', '1e+5e', '0o8'])('writes %s plain and reads it back as a string', (value) => {
    expect(renderFlatFrontmatter({ v: value })).toBe(`v: ${value}\n`);
    expect(parseFlatFrontmatter(`v: ${value}\n`)).toEqual({ v: value });
  });
});

describe('parseFrontmatterYaml', () => {
  it('still refuses a duplicate key the flat reader leaves to the library', () => {
    expect(parseFrontmatterYaml('a: x\na: y\n').problems.map((p) => p.code)).toEqual(['YAML_DUPLICATE_KEY']);
  });
});
