import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LIB_DIR, typeScriptFiles } from './support/lib-sources';

const ROOT = join(LIB_DIR, '..');

/**
 * Names of documents that live outside the repository (the design notes, the seeds, the sibling
 * harness folders): a reader of a clone cannot follow them, so a comment says its reason itself
 * or points to docs/.
 */
const OUTSIDE = /\bDESIGN(?:\.md)?\b|\bseeds?\s+\d{3}\b|\bseeds\/|\bharness README\b|\.\.\/shared\/|\bSTYLE\.md\b/;

/** The lines of `text` that name an outside document, as `path:line: text`. */
function outsideReferences(path: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (OUTSIDE.test(line) ? [`${relative(ROOT, path)}:${i + 1}: ${line.trim().slice(0, 120)}`] : []));
}

describe('references in lib/ and schemas/', () => {
  const files = [...typeScriptFiles(LIB_DIR), ...readdirSync(join(ROOT, 'schemas')).filter((n) => n.endsWith('.json')).map((n) => join(ROOT, 'schemas', n))];

  it('name no document outside the repository', () => {
    expect(files.flatMap((f) => outsideReferences(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('would name a comment that points to the design notes, a seed or the sibling harness', () => {
    const text = ['// see DESIGN §4', '/** (seed 002: 32 KiB) */', '// claude-harness README §7', 'const seedDoc = 1; // the seed stays'].join('\n');
    expect(outsideReferences(join(LIB_DIR, 'x.ts'), text).map((l) => l.split(':')[1])).toEqual(['1', '2', '3']);
  });
});
