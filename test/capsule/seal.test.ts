import { checkSeal, sealCapsuleText } from '../../lib/capsule/seal';
import { parseCapsule } from '../../lib/capsule/parse';
import { capsuleDoc } from '../support/capsule-doc';

const KEY = new Uint8Array(32).fill(1);
const OTHER = new Uint8Array(32).fill(2);

describe('sealCapsuleText and checkSeal', () => {
  it('seals a document as its last frontmatter line, which the parser reads as a plain field', () => {
    const sealed = sealCapsuleText(capsuleDoc(), KEY)!;
    expect(sealed).toMatch(/\nseal: hmac-sha256:[0-9a-f]{64}\n---\n/);
    expect(parseCapsule(sealed).doc?.frontmatter.seal).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(checkSeal(sealed, KEY)).toBe('valid');
  });

  it('gives the same bytes when sealed again, whatever seal the text carried', () => {
    const once = sealCapsuleText(capsuleDoc(), KEY)!;
    expect(sealCapsuleText(once, KEY)).toBe(once);
    expect(sealCapsuleText(sealCapsuleText(capsuleDoc(), OTHER)!, KEY)).toBe(once);
  });

  it.each([
    ['another key', (t: string) => t, OTHER],
    ['an edited field', (t: string) => t.replace('Ship the resume verb', 'Ship it'), KEY],
    ['an edited body', (t: string) => `${t}extra\n`, KEY],
    ['a second seal line', (t: string) => t.replace('\n---\n', '\nseal: hmac-sha256:00\n---\n'), KEY],
    ['a truncated seal', (t: string) => t.replace(/(seal: hmac-sha256:[0-9a-f]{63})[0-9a-f]/, '$1'), KEY],
  ])('finds the seal invalid under %s', (_name, edit, key) => {
    expect(checkSeal(edit(sealCapsuleText(capsuleDoc(), KEY)!), key)).toBe('invalid');
  });

  it('finds an unsealed document absent, and every seal invalid without a key', () => {
    expect(checkSeal(capsuleDoc(), KEY)).toBe('absent');
    expect(checkSeal(sealCapsuleText(capsuleDoc(), KEY)!, null)).toBe('invalid');
  });

  it('reveals no byte of the key in the seal', () => {
    const sealed = sealCapsuleText(capsuleDoc(), KEY)!;
    expect(sealed).not.toContain(Buffer.from(KEY).toString('hex'));
    expect(sealed).not.toContain(Buffer.from(KEY).toString('hex').slice(0, 12));
  });

  it('refuses a text without LF frontmatter (the store renders it first)', () => {
    expect(sealCapsuleText(capsuleDoc().replace(/\n/g, '\r\n'), KEY)).toBeNull();
  });
});
