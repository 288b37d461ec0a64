import { renderFlatFrontmatter } from './flat-frontmatter';
import type { Frontmatter } from './types';

/**
 * The capsule text with `fields` added as the last lines of its frontmatter, every other byte as
 * its author wrote it (a hand-written capsule keeps its own layout, comments and quoting). Null
 * when the text cannot be edited line by line (CRLF, no `---` fences, a value the flat renderer
 * does not write): the caller renders the parsed document instead. The caller adds only keys the
 * frontmatter does not hold.
 *
 * @example addFrontmatterFields(text, { repo_branch: 'main' })
 */
export function addFrontmatterFields(text: string, fields: Frontmatter): string | null {
  if (Object.keys(fields).length === 0) return text;
  if (!text.startsWith('---\n') || text.includes('\r')) return null;
  const end = text.indexOf('\n---', 3);
  if (end < 0) return null;
  const lines = renderFlatFrontmatter(fields);
  if (lines === null) return null;
  return `${text.slice(0, end + 1)}${lines}${text.slice(end + 1)}`;
}
