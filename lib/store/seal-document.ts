import { parseCapsule } from '../capsule/parse';
import { renderCapsule } from '../capsule/render';
import { SEAL_FIELD, sealCapsuleText } from '../capsule/seal';
import type { Frontmatter } from '../capsule/types';

/**
 * The document sealed with `key` as its last frontmatter line (lib/capsule/seal.ts), whatever
 * seal it carried before (copied or stale) replaced. A text whose frontmatter cannot take a line
 * (CRLF) is parsed and rendered first, as stampIdentity does. `fields` gain the seal too, so
 * what the store summarizes matches the committed bytes.
 */
export function sealDocument(text: string, fields: Frontmatter, key: Uint8Array): { text: string; fields: Frontmatter } {
  let sealed = sealCapsuleText(text, key);
  if (sealed === null) {
    const { doc } = parseCapsule(text);
    if (doc === null) return { text, fields }; // validated before: unreachable
    const { [SEAL_FIELD]: _old, ...rest } = doc.frontmatter;
    sealed = sealCapsuleText(renderCapsule({ ...doc, frontmatter: rest }), key);
    if (sealed === null) return { text, fields };
  }
  const value = /^seal: (.*)$/m.exec(sealed)?.[1];
  return { text: sealed, fields: value === undefined ? fields : { ...fields, [SEAL_FIELD]: value } };
}
