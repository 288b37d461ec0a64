import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCapsule } from '../../lib/capsule/parse';
import { renderCapsule } from '../../lib/capsule/render';
import { validateCapsuleText } from '../../lib/capsule/validate';
import { stampIdentity } from '../../lib/store/stamp-identity';
import { capsuleDoc } from '../support/capsule-doc';

const STAMP = { author: 'alice@example.com', machine: 'm-01JDQ6Z8W1N9V3C5Q7R2T4Y6XA', worktree: 'w-3f9c2a8e1b7d4c60' };
const stamp = (text: string) => stampIdentity(text, validateCapsuleText(text).fields, STAMP);

describe('stampIdentity', () => {
  it('adds the three fields last, as the renderer places them, so a rendered document with them is the same text', () => {
    const text = capsuleDoc({ trigger: 'autosave', tags: ['autosave'] });
    const stamped = stamp(text);
    const doc = parseCapsule(text).doc!;
    expect(stamped.text).toBe(renderCapsule({ ...doc, frontmatter: { ...doc.frontmatter, ...STAMP } }));
    expect(stamped.fields).toMatchObject(STAMP);
  });

  it('leaves a text that already carries the stamp byte for byte', () => {
    const once = stamp(capsuleDoc()).text;
    expect(stamp(once).text).toBe(once);
  });

  it('replaces what the text claimed, wherever it was', () => {
    const forged = capsuleDoc({ author: 'mallory@example.com', machine: 'm-FORGED', worktree: 'w-forged' });
    const stamped = stamp(forged);
    expect(stamped.text).not.toMatch(/mallory|FORGED|forged/);
    expect(parseCapsule(stamped.text).doc!.frontmatter).toMatchObject(STAMP);
  });

  it('keeps a value that is not printable ASCII to one plain line', () => {
    const stamped = stampIdentity(capsuleDoc(), {}, { ...STAMP, author: 'al\nice@exämple.com' });
    expect(parseCapsule(stamped.text).doc!.frontmatter.author).toBe('al_ice@ex_mple.com');
  });

  it.each([
    ['CRLF line ends', (t: string) => t.replace(/\n/g, '\r\n')],
    ['a block scalar under one of the keys', (t: string) => t.replace('---\n\n', 'author: |\n  someone\n  else\n---\n\n')],
  ])('falls back to parse and render for %s', (_name, change) => {
    const stamped = stamp(change(capsuleDoc()));
    expect(validateCapsuleText(stamped.text).problems).toEqual([]);
    expect(parseCapsule(stamped.text).doc!.frontmatter).toMatchObject(STAMP);
  });

  it('renders the identity fixture in canonical form byte for byte', () => {
    const text = readFileSync(join(__dirname, '..', 'fixtures', 'capsules', 'valid-handoff.md'), 'utf8');
    expect(renderCapsule(parseCapsule(text).doc!)).toBe(text);
  });
});
