import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, isErrorCode } from '../../lib/errors/error-codes';
import { typeScriptFiles } from '../support/lib-sources';

const ROOT = join(__dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');


describe('the error codes', () => {
  it('names each code once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it.each(ERROR_CODES.map((c) => [c]))('documents %s in docs/errors.md', (code) => {
    expect(DOC).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
  });

  it('documents no code the list does not have', () => {
    const documented = [...DOC.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!);
    expect(documented.filter((c) => !isErrorCode(c))).toEqual([]);
  });

  it('leaves no code in lib/ outside the list (thrown, logged or mapped)', () => {
    const used = new Set<string>();
    for (const path of typeScriptFiles()) {
      const text = readFileSync(path, 'utf8');
      for (const m of text.matchAll(/(?:CapsuleError\(\s*|isCapsuleError\([^,]+,\s*|warn\(\s*|failOpen\(\s*|\bcode: )'([A-Z][A-Z0-9_]+)'/g)) used.add(m[1]!);
    }
    // Problem codes (validation, JSONL) are findings, not errors: the page lists them in its last section.
    const problems = DOC.slice(DOC.indexOf('## Problems are not errors'));
    expect([...used].filter((c) => !isErrorCode(c) && !problems.includes(`\`${c}\``))).toEqual([]);
  });
});
