import { parseFrontmatterYaml, splitFrontmatter } from './frontmatter';
import { parseBody } from './sections';
import type { CapsuleDocument, Frontmatter, Problem } from './types';

/**
 * Parses capsule text into its document. Never throws: anything unreadable is a problem with
 * a stable code and `doc` is null (see `splitFrontmatter` and `parseFrontmatterYaml`).
 *
 * @example parseCapsule('---\nid: 01J…\n---\n').doc?.frontmatter.id
 */
export function parseCapsule(text: string): { doc: CapsuleDocument | null; problems: Problem[] } {
  const parsed = parseCapsuleParts(text);
  if (parsed.frontmatter === null) return { doc: null, problems: parsed.problems };
  const body = parseBody(parsed.body);
  return { doc: { frontmatter: parsed.frontmatter, sections: body.sections, notes: body.notes }, problems: [] };
}

/**
 * The frontmatter of capsule text, with the same problems `parseCapsule` names, without reading
 * the body into sections (which never fails): what validation needs, at every write.
 */
export function parseCapsuleFrontmatter(text: string): { frontmatter: Frontmatter | null; problems: Problem[] } {
  const { frontmatter, problems } = parseCapsuleParts(text);
  return { frontmatter, problems };
}

function parseCapsuleParts(text: string): { frontmatter: Frontmatter | null; body: string; problems: Problem[] } {
  if (typeof text !== 'string') {
    return { frontmatter: null, body: '', problems: [{ code: 'BINARY_CONTENT', message: `capsule text must be a string, got ${typeof text}` }] };
  }
  const split = splitFrontmatter(text);
  if (split.yaml === null) return { frontmatter: null, body: '', problems: split.problems };
  const parsed = parseFrontmatterYaml(split.yaml);
  if (parsed.frontmatter === null) return { frontmatter: null, body: '', problems: parsed.problems };
  return { frontmatter: parsed.frontmatter, body: split.body, problems: [] };
}
