import { foldDeclaredLine } from './inert';
import { DEFAULT_SECTION_MAX } from './limits';
import { SECTION_KEYS, type CapsuleDocument, type SectionKey } from './types';

/** Each section's heading. "Historical-" and "[REFERENCE ONLY]" frame the body as a snapshot, never a queue. */
export const SECTION_TITLES: Record<SectionKey, string> = {
  done: 'Done',
  errors: 'Historical-Errors → Resolutions',
  rejected: 'Historical-Rejected-Approaches',
  files: 'Files-Read / Files-Modified',
  facts: 'Operating-Facts',
  gates: 'Pending-Gates',
  claimed: 'Claimed-Rows',
};

/** The anchor comment that opens a section, so a writer can find it and merge bullets in. */
export function sectionAnchor(key: SectionKey): string {
  return `<!-- capsule:${key} -->`;
}

const ANCHOR = /^<!-- capsule:([a-z-]+) -->[ \t]*$/;
const FOLDED_ITEM = /^… (\d+) earlier items? folded$/;

/** Seven empty sections. */
export function emptySections(): Record<SectionKey, string[]> {
  return Object.fromEntries(SECTION_KEYS.map((k) => [k, [] as string[]])) as unknown as Record<SectionKey, string[]>;
}

/**
 * Reads the body into notes (text before the first anchor, or under an unknown anchor) and the
 * seven sections' bullets. Non-bullet lines inside a section become items, so nothing is lost.
 */
export function parseBody(body: string): { sections: Record<SectionKey, string[]>; notes: string } {
  const sections = emptySections();
  const notes: string[] = [];
  let current: SectionKey | null = null;
  for (const line of body.split('\n')) {
    const anchor = ANCHOR.exec(line);
    if (anchor) {
      current = (SECTION_KEYS as readonly string[]).includes(anchor[1]!) ? (anchor[1] as SectionKey) : null;
      if (current === null) notes.push(line);
      continue;
    }
    if (current === null) {
      notes.push(line);
      continue;
    }
    if (/^##\s/.test(line) || line.trim() === '') continue;
    const item = line.replace(/^\s*[-*]\s+/, '').trim();
    if (item !== '') sections[current].push(item);
  }
  return { sections, notes: notes.join('\n').trim() };
}

/** Renders the seven sections in order, each behind its anchor, one bullet a line. */
export function renderBody(doc: Pick<CapsuleDocument, 'sections' | 'notes'>): string {
  const parts: string[] = [];
  if (doc.notes.trim() !== '') parts.push(doc.notes.trim());
  for (const key of SECTION_KEYS) {
    const lines = [sectionAnchor(key), `## ${SECTION_TITLES[key]} [REFERENCE ONLY]`];
    for (const item of doc.sections[key] ?? []) lines.push(`- ${toItem(item)}`);
    parts.push(lines.join('\n'));
  }
  return parts.join('\n\n') + '\n';
}

/**
 * Merges new bullets into one section: newline-folded, deduplicated against what is there,
 * order kept (old first), and bounded to `max` items; what the bound drops is counted in a
 * leading "… N earlier items folded" item that accumulates across merges.
 *
 * @example mergeSectionBullets(doc, 'done', ['ran tests'], { max: 40 })
 */
export function mergeSectionBullets(
  doc: CapsuleDocument,
  key: SectionKey,
  bullets: readonly string[],
  options: { max?: number } = {},
): CapsuleDocument {
  const max = Math.max(1, options.max ?? DEFAULT_SECTION_MAX);
  let folded = 0;
  const items: string[] = [];
  for (const item of doc.sections[key] ?? []) {
    const m = FOLDED_ITEM.exec(item);
    if (m) folded += Number(m[1]);
    else items.push(item);
  }
  const seen = new Set(items);
  for (const raw of bullets) {
    const item = toItem(raw);
    if (item === '' || seen.has(item)) continue;
    seen.add(item);
    items.push(item);
  }
  const overflow = Math.max(0, items.length - (folded > 0 || items.length > max ? max - 1 : max));
  folded += overflow;
  const kept = items.slice(overflow);
  const next = folded > 0 ? [`… ${folded} earlier item${folded === 1 ? '' : 's'} folded`, ...kept] : kept;
  return { ...doc, sections: { ...doc.sections, [key]: next } };
}

function toItem(text: string): string {
  return foldDeclaredLine(text).replace(/\s+/g, ' ').trim();
}
