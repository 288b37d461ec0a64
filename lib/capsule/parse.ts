import { parseFrontmatterYaml, splitFrontmatter } from './frontmatter';
import { parseBody } from './sections';
import type { CapsuleDocument, Problem } from './types';

/**
 * Parses capsule text into its document. Never throws: anything unreadable is a problem with
 * a stable code and `doc` is null (see `splitFrontmatter` and `parseFrontmatterYaml`).
 *
 * @example parseCapsule('---\nid: 01J…\n---\n').doc?.frontmatter.id
 */
export function parseCapsule(text: string): { doc: CapsuleDocument | null; problems: Problem[] } {
  if (typeof text !== 'string') {
    return { doc: null, problems: [{ code: 'BINARY_CONTENT', message: `capsule text must be a string, got ${typeof text}` }] };
  }
  const split = splitFrontmatter(text);
  if (split.yaml === null) return { doc: null, problems: split.problems };
  const parsed = parseFrontmatterYaml(split.yaml);
  if (parsed.frontmatter === null) return { doc: null, problems: parsed.problems };
  const body = parseBody(split.body);
  return { doc: { frontmatter: parsed.frontmatter, sections: body.sections, notes: body.notes }, problems: [] };
}
