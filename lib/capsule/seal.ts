/**
 * The seal of a capsule this clone wrote (docs/format.md "Seal"): the last frontmatter line
 * `seal: hmac-sha256:<64 hex>`, an HMAC-SHA256 with this clone's private key over the document
 * without that line (the canonical document). Identity fields are published and can be copied;
 * the seal cannot be made without the key, and HMAC output reveals nothing of the key, so it may
 * travel with the document to every remote.
 */
export const SEAL_FIELD = 'seal';

/** What a document's seal says under one key: made with it, absent, or present and wrong (edited, copied, or another clone's). */
export type SealCheck = 'valid' | 'absent' | 'invalid';

const SEAL_KEY_LINE = /^seal:/;
const SEAL_VALUE = /^seal: hmac-sha256:([0-9a-f]{64})$/;
// Binds the MAC to this use: the same key never authenticates anything else by accident.
const DOMAIN = 'git-capsule seal v1\0';

/**
 * `text` with its seal under `key` as the last frontmatter line, any earlier `seal:` line
 * dropped; null when the text has no LF frontmatter a line can be added to (the store then
 * renders the document first).
 *
 * @example sealCapsuleText('---\nid: x\n---\n', key) // '---\nid: x\nseal: hmac-sha256:…\n---\n'
 */
export function sealCapsuleText(text: string, key: Uint8Array): string | null {
  const fm = frontmatterLines(text);
  if (fm === null) return null;
  const kept = fm.lines.filter((l) => !SEAL_KEY_LINE.test(l));
  const canonical = joinDocument(kept, fm.rest);
  return joinDocument([...kept, `${SEAL_FIELD}: hmac-sha256:${macOf(canonical, key)}`], fm.rest);
}

/** Whether `text` carries a seal made with `key` over exactly its other bytes. A key of null (none made yet) finds every seal invalid. */
export function checkSeal(text: string, key: Uint8Array | null): SealCheck {
  const fm = frontmatterLines(text);
  if (fm === null) return 'absent';
  const at = fm.lines.flatMap((l, i) => (SEAL_KEY_LINE.test(l) ? [i] : []));
  if (at.length === 0) return 'absent';
  const value = at.length === 1 ? SEAL_VALUE.exec(fm.lines[at[0]!]!) : null;
  if (value === null || key === null) return 'invalid';
  const canonical = joinDocument(fm.lines.filter((_, i) => i !== at[0]), fm.rest);
  const { timingSafeEqual } = crypto();
  const bytes = (hex: string) => new TextEncoder().encode(hex);
  return timingSafeEqual(bytes(macOf(canonical, key)), bytes(value[1]!)) ? 'valid' : 'invalid';
}

function macOf(canonical: string, key: Uint8Array): string {
  return crypto().createHmac('sha256', key).update(DOMAIN).update(canonical, 'utf8').digest('hex');
}

// Loaded on first use, as lib/git/sha1.ts does: a reading verb that never checks a seal never pays for it.
function crypto(): typeof import('node:crypto') {
  return require('node:crypto') as typeof import('node:crypto');
}

function frontmatterLines(text: string): { lines: string[]; rest: string } | null {
  if (!text.startsWith('---\n') || text.includes('\r')) return null;
  const end = text.indexOf('\n---', 3);
  if (end < 0) return null;
  return { lines: text.slice(4, end + 1).split('\n').slice(0, -1), rest: text.slice(end + 1) };
}

function joinDocument(lines: readonly string[], rest: string): string {
  return lines.length === 0 ? `---\n${rest}` : `---\n${lines.join('\n')}\n${rest}`;
}
