import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { LIB_DIR, typeScriptFiles } from '../support/lib-sources';

// What a pattern of the memory tree's paths looks like in source: `capsules\/`, `retired\/` or
// `index\/` escaped for a regular expression, or a layout's year of four or five digits.
const LAYOUT_PATTERN = /capsules\\\/|retired\\\/|index\\\/|\\d\{4,5\}/;
/** The one home of the layout: folder names and where a capsule goes, and whole-path patterns. */
const HOMES = ['store/memory-format.ts', 'store/layout-paths.ts'];

describe('the memory layout', () => {
  it('is written as patterns only in memory-format.ts and layout-paths.ts; every other reader imports them', () => {
    const strays = typeScriptFiles().map((f) => relative(LIB_DIR, f)).filter((f) => !HOMES.includes(f) && LAYOUT_PATTERN.test(readFileSync(`${LIB_DIR}/${f}`, 'utf8')));
    expect(strays).toEqual([]);
  });
});
