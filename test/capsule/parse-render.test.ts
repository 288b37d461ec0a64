import { parseCapsule, parseCapsuleFrontmatter } from '../../lib/capsule/parse';
import { renderCapsule } from '../../lib/capsule/render';
import { emptySections } from '../../lib/capsule/sections';
import type { CapsuleDocument } from '../../lib/capsule/types';
import { capsuleFixtures } from './fixtures';

describe('parseCapsule', () => {
  it('reads frontmatter, notes and section bullets', () => {
    const [, text] = capsuleFixtures().find(([n]) => n === 'valid-autosave.md')!;
    const { doc, problems } = parseCapsule(text);
    expect(problems).toEqual([]);
    expect(doc!.frontmatter.trigger).toBe('autosave');
    expect(doc!.notes).toBe('Free notes before the sections are kept.');
    expect(doc!.sections.files).toEqual(['read: README.md', 'modified: src/a.ts']);
    expect(doc!.sections.done).toEqual(['… 3 earlier items folded', 'ran npm test']);
  });

  it('keeps stamps as strings (YAML core schema, no timestamp type)', () => {
    const { doc } = parseCapsule('---\ncreated_at: 2026-11-29T10:00:00Z\n---\n');
    expect(doc!.frontmatter.created_at).toBe('2026-11-29T10:00:00Z');
  });

  it('keeps prose under a section as items, so nothing written is lost', () => {
    const { doc } = parseCapsule('---\na: 1\n---\n<!-- capsule:facts -->\n## Operating-Facts\nnode 20 only\n* uses pnpm\n');
    expect(doc!.sections.facts).toEqual(['node 20 only', 'uses pnpm']);
  });

  it('keeps an unknown anchor and its text in the notes', () => {
    const { doc } = parseCapsule('---\na: 1\n---\n<!-- capsule:mystery -->\nsome text\n');
    expect(doc!.notes).toBe('<!-- capsule:mystery -->\nsome text');
  });
});

describe('parseCapsuleFrontmatter', () => {
  const texts: Array<[string, unknown]> = [
    ...capsuleFixtures(),
    ['no frontmatter', 'just text\n'],
    ['unterminated', '---\nid: x\n'],
    ['binary', '---\nid: x\n---\n\u0000\n'],
    ['not YAML', '---\nid: [x\n---\n'],
    ['a list', '---\n- a\n---\n'],
    ['CRLF and a BOM', '\ufeff---\r\nid: x\r\n---\r\nbody\r\n'],
    ['not a string', 42],
  ];

  it.each(texts)('reads the frontmatter and the problems parseCapsule reads from %s', (_name, text) => {
    const whole = parseCapsule(text as string);
    expect(parseCapsuleFrontmatter(text as string)).toEqual({ frontmatter: whole.doc?.frontmatter ?? null, problems: whole.problems });
  });
});

describe('renderCapsule', () => {
  it.each(capsuleFixtures())('round-trips the fixture %s', (_name, text) => {
    const doc = parseCapsule(text).doc!;
    expect(parseCapsule(renderCapsule(doc)).doc).toEqual(doc);
  });

  it('renders a fixture in canonical form byte for byte', () => {
    const [, text] = capsuleFixtures().find(([n]) => n === 'valid-manual.md')!;
    expect(renderCapsule(parseCapsule(text).doc!)).toBe(text);
  });

  it('round-trips values YAML would otherwise reinterpret', () => {
    const doc: CapsuleDocument = {
      frontmatter: {
        id: '01JDQ6Z8W1N9V3C5Q7R2T4Y6XA',
        objective: 'yes',
        waiting_on: 'null',
        next_valid_action: '- [ ] #1: do "it" --- now',
        created_at: '2026-11-29T10:00:00Z',
        status: 'active',
        tags: ['1.0', 'true', 'a: b'],
        extra_number: 3,
      },
      sections: { ...emptySections(), done: ['a', 'b: c', '## not a heading'] },
      notes: 'note',
    };
    expect(parseCapsule(renderCapsule(doc)).doc).toEqual(doc);
  });

  it('puts the contract fields first', () => {
    const text = renderCapsule({ frontmatter: { zeta: 1, status: 'active', id: 'x' }, sections: emptySections(), notes: '' });
    expect(text.split('\n').slice(1, 4)).toEqual(['id: x', 'status: active', 'zeta: 1']);
  });

  it('renders every section behind its anchor with a [REFERENCE ONLY] heading', () => {
    const text = renderCapsule({ frontmatter: {}, sections: emptySections(), notes: '' });
    expect(text.match(/<!-- capsule:[a-z]+ -->\n## .+ \[REFERENCE ONLY\]/g)).toHaveLength(7);
  });
});
