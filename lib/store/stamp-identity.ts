import { renderFlatFrontmatter } from '../capsule/flat-frontmatter';
import { IDENTITY_FIELDS, cleanIdentityValue, hasStamp, type IdentityStamp } from '../capsule/identity-fields';
import { parseCapsule } from '../capsule/parse';
import { renderCapsule } from '../capsule/render';
import type { Frontmatter } from '../capsule/types';

/**
 * The capsule text with the writer's identity stamped in (`author`, `machine`, `worktree`,
 * replacing whatever values the text carried), placed last in the frontmatter as the renderer
 * places them, so an autosave rewritten from its document gives the same bytes. Only those
 * lines change; a text whose frontmatter cannot be edited line by line (CRLF, a BOM, a
 * multi-line value under one of these keys) is parsed and rendered instead.
 */
export function stampIdentity(text: string, fields: Frontmatter, raw: IdentityStamp): { text: string; fields: Frontmatter } {
  const stamp = Object.fromEntries(IDENTITY_FIELDS.map((k) => [k, cleanIdentityValue(raw[k])])) as IdentityStamp;
  const stamped = { ...fields, ...stamp };
  if (hasStamp(fields, stamp) && identityIsLast(text)) return { text, fields };
  const edited = editLines(text, stamp);
  if (edited !== null) return { text: edited, fields: stamped };
  const { doc } = parseCapsule(text);
  if (doc === null) return { text, fields }; // validated before: unreachable, and the store refuses it anyway
  return { text: renderCapsule({ ...doc, frontmatter: { ...doc.frontmatter, ...stamp } }), fields: stamped };
}

const KEY_LINE = new RegExp(`^(${IDENTITY_FIELDS.join('|')}):`);

function frontmatterLines(text: string): { lines: string[]; rest: string } | null {
  if (!text.startsWith('---\n') || text.includes('\r')) return null;
  const end = text.indexOf('\n---', 3);
  if (end < 0) return null;
  return { lines: text.slice(4, end + 1).split('\n').slice(0, -1), rest: text.slice(end + 1) };
}

function editLines(text: string, stamp: IdentityStamp): string | null {
  const fm = frontmatterLines(text);
  if (fm === null) return null;
  const kept: string[] = [];
  for (const [i, line] of fm.lines.entries()) {
    if (!KEY_LINE.test(line)) {
      kept.push(line);
      continue;
    }
    const next = fm.lines[i + 1];
    // A value continued on the next line (a block scalar, a list): not ours to cut line by line.
    if (next !== undefined && /^[\s-]/.test(next)) return null;
  }
  // Written exactly as the renderer writes them, so a document rendered with its stamp is the same text.
  const added = IDENTITY_FIELDS.map((k) => (renderFlatFrontmatter({ [k]: stamp[k] }) ?? `${k}: ${JSON.stringify(stamp[k])}\n`).slice(0, -1));
  return `---\n${[...kept, ...added].join('\n')}\n${fm.rest}`;
}

function identityIsLast(text: string): boolean {
  const fm = frontmatterLines(text);
  if (fm === null) return false;
  const tail = fm.lines.slice(-IDENTITY_FIELDS.length).map((l) => l.split(':')[0]);
  return IDENTITY_FIELDS.every((k, i) => tail[i] === k);
}
