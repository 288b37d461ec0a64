/** The seven `[REFERENCE ONLY]` body sections, in render order (docs/format.md "Capsule format"). */
export const SECTION_KEYS = ['done', 'errors', 'rejected', 'files', 'facts', 'gates', 'claimed'] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

/** The status vocabulary, in lattice order: a status never moves backwards, and a capsule's status is the maximum of its events from every machine (docs/sync.md). */
export const STATUSES = ['active', 'paused', 'resumed', 'abandoned', 'resolved'] as const;
export type CapsuleStatus = (typeof STATUSES)[number];

/** Frontmatter as parsed: values are whatever the YAML said, to be checked by validation. */
export type Frontmatter = Record<string, unknown>;

/** A capsule document: frontmatter plus the body sections as bullet lists. */
export interface CapsuleDocument {
  frontmatter: Frontmatter;
  /** Bullet items of each section, without the leading `- `. */
  sections: Record<SectionKey, string[]>;
  /** Body text outside the seven sections (before the first anchor), kept verbatim, trimmed. */
  notes: string;
}

/** One validation problem: a stable code, the field it concerns when there is one, and a message. */
export interface Problem {
  code: string;
  message: string;
  field?: string;
}

/** The fields validation could read (strings only where they were strings), and its problems. */
export interface ValidationResult {
  fields: Frontmatter;
  problems: Problem[];
}

/** The tag that marks an autosave for writers that tag instead of setting `trigger` (an autosave is recognised by its `trigger` or its tags, never by words in its text). */
export const AUTOSAVE_TAG = 'autosave';
