import { emptySections, mergeSectionBullets } from '../../lib/capsule/sections';
import type { CapsuleDocument } from '../../lib/capsule/types';

const doc = (done: string[] = []): CapsuleDocument => ({ frontmatter: {}, sections: { ...emptySections(), done }, notes: '' });

describe('mergeSectionBullets', () => {
  it('appends new bullets after the old ones', () => {
    expect(mergeSectionBullets(doc(['a']), 'done', ['b', 'c']).sections.done).toEqual(['a', 'b', 'c']);
  });

  it('drops bullets already present', () => {
    expect(mergeSectionBullets(doc(['a', 'b']), 'done', ['b', 'a', 'c', 'c']).sections.done).toEqual(['a', 'b', 'c']);
  });

  it('folds line breaks so a bullet stays one line', () => {
    expect(mergeSectionBullets(doc(), 'done', ['x\ny\u2028z']).sections.done).toEqual(['x y z']);
  });

  it('ignores empty bullets', () => {
    expect(mergeSectionBullets(doc(), 'done', ['', '   ']).sections.done).toEqual([]);
  });

  it('bounds the section and counts what it folded away', () => {
    const merged = mergeSectionBullets(doc(['a', 'b', 'c']), 'done', ['d', 'e'], { max: 3 });
    expect(merged.sections.done).toEqual(['… 3 earlier items folded', 'd', 'e']);
  });

  it('accumulates the folded count across merges', () => {
    const once = mergeSectionBullets(doc(['a', 'b', 'c']), 'done', ['d'], { max: 3 });
    const twice = mergeSectionBullets(once, 'done', ['e', 'f'], { max: 3 });
    expect(twice.sections.done).toEqual(['… 4 earlier items folded', 'e', 'f']);
  });

  it('leaves the other sections and the input document alone', () => {
    const before = doc(['a']);
    const merged = mergeSectionBullets(before, 'files', ['read: x']);
    expect(before.sections.files).toEqual([]);
    expect(merged.sections.done).toEqual(['a']);
  });
});
