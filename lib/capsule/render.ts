import { renderFlatFrontmatter } from './flat-frontmatter';
import { IDENTITY_FIELDS } from './identity-fields';
import { loadYaml } from './yaml-lib';
import { renderBody } from './sections';
import type { CapsuleDocument, Frontmatter } from './types';

/** Field order of rendered frontmatter: the contract first, then provenance, then the rest sorted, then the writer's identity (IDENTITY_FIELDS, which the store stamps last). */
export const FIELD_ORDER = [
  'id', 'parent_capsule_id', 'objective', 'waiting_on', 'next_valid_action', 'status', 'trigger',
  'created_at', 'updated_at', 'resolved_at', 'expires', 'session_id', 'repo_head', 'repo_branch',
  'tags', 'resume_trigger', 'success_criteria',
] as const;

/**
 * Renders a document as canonical capsule text: ordered frontmatter (no line folding, so a
 * value keeps its line) and the seven anchored sections. `parseCapsule(renderCapsule(d)).doc`
 * deep-equals `d` for a document of strings, lists and numbers.
 */
export function renderCapsule(doc: CapsuleDocument): string {
  const fields = orderFields(doc.frontmatter);
  // Flat frontmatter (nearly every capsule) is written without loading the YAML library, byte for byte as it would write it.
  const yaml = renderFlatFrontmatter(fields) ?? new (loadYaml().Document)(fields).toString({ lineWidth: 0, minContentWidth: 0 });
  return `---\n${yaml}---\n\n${renderBody(doc)}`;
}

function orderFields(fm: Frontmatter): Frontmatter {
  const ordered: Frontmatter = {};
  for (const key of FIELD_ORDER) if (fm[key] !== undefined) ordered[key] = fm[key];
  const last = new Set<string>(IDENTITY_FIELDS);
  for (const key of Object.keys(fm).sort()) if (!(key in ordered) && !last.has(key) && fm[key] !== undefined) ordered[key] = fm[key];
  for (const key of IDENTITY_FIELDS) if (fm[key] !== undefined) ordered[key] = fm[key];
  return ordered;
}
