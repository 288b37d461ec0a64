import { inert } from '../capsule/inert';
import { SECTION_TITLES } from '../capsule/sections';
import { errorState, fileKind } from '../capsule/section-items';
import { SECTION_KEYS, type SectionKey } from '../capsule/types';
import type { SelectedCapsule } from '../select/types';
import { renderAgeLines } from './age';
import { pickBody, type BodyBudget } from './body-budget';
import { REQUIRED_VALUE_MAX, type DetailLevel } from './detail-levels';
import { renderHeadDrift, type HeadDrift } from './head-drift';
import { renderIdentityLines, type ResumeLineage } from './identity-lines';
import { detectWriter, renderWriterLines } from './writer-kind';

/** What consuming the capsule did, as the runtime reports it. */
export type Consumption =
  | { state: 'consumed'; writer: string }
  | { state: 'kept'; why: 'no-consume' }
  | { state: 'failed'; code: string };

const REQUIRED = ['objective', 'waiting_on', 'next_valid_action'] as const;
const OPTIONAL = [
  'trigger', 'tags', 'parent_capsule_id', 'updated_at', 'expires', 'resolved_at', 'resume_trigger', 'success_criteria',
] as const;
// The quoted evidence (docs/format.md): the words themselves, never a label.
const EVIDENCE: ReadonlyArray<[string, string]> = [
  ['task_as_stated', 'the task as the user first stated it'],
  ['latest_request', "the user's latest request"],
  ['final_message', "the agent's final message of the last turn"],
  ['compact_summary', "the client's compaction summary"],
];
/** The heading of the quoted evidence; step 1 of the procedure tells the agent to read it. */
export const EVIDENCE_HEADING = 'QUOTED EVIDENCE (words as written, redacted and bounded; read them and judge: where a field above is unknown or disagrees with them, they and live state decide)';
// Fields the writer keeps for itself (the pairing data of open failures): never shown, never counted as unknown.
const INTERNAL = ['open_checks'];
const SHOWN = new Set<string>(['id', 'status', 'created_at', 'session_id', 'repo_head', 'repo_branch', 'author', 'machine', 'worktree', 'handoff_to', ...REQUIRED, ...OPTIONAL, ...EVIDENCE.map(([k]) => k), ...INTERNAL]);

/**
 * The required part of CAPSULE DATA, which the budget never shrinks: the contract fields, the
 * age lines, the writer, consumption and how far HEAD moved. Every capsule value goes through inert().
 */
export function renderCapsuleCore(capsule: SelectedCapsule, ctx: { now: Date; headDrift: HeadDrift; consumption: Consumption; lineage?: ResumeLineage | null }): string[] {
  const f = capsule.fields;
  const lines = [`id: ${inert(f.id, { max: 64 })}`];
  for (const key of REQUIRED) lines.push(`${key}: ${inert(f[key], { max: REQUIRED_VALUE_MAX })}`);
  lines.push(...renderAgeLines(f.created_at, capsule.ageMs, ctx.now));
  lines.push(...renderWriterLines(f));
  lines.push(...renderIdentityLines(capsule, ctx.lineage));
  if (f.session_id !== undefined) lines.push(`written in session: ${inert(f.session_id, { max: 120 })} (the writer's: historical, not the current session)`);
  lines.push(renderConsumption(ctx.consumption));
  lines.push(renderHeadDrift(f.repo_head, ctx.headDrift));
  return lines;
}

/** The shrinkable part of CAPSULE DATA: optional fields, body notes and sections, bounded by `level`. */
export function renderCapsuleExtras(capsule: SelectedCapsule, level: DetailLevel, budget?: Omit<BodyBudget, 'itemMax'>): string[] {
  const f = capsule.fields;
  const lines: string[] = renderEvidence(f, level.evidenceMax);
  // trigger and tags that only restate the writer line above are not worth their characters.
  const present = OPTIONAL.filter((k) => f[k] !== undefined && !restatesWriter(k, f));
  if (level.optionalMax > 0) for (const key of present) lines.push(`${key}: ${inert(f[key], { max: level.optionalMax })}`);
  else if (present.length > 0) lines.push(`optional fields: ${present.length} not shown (${present.join(', ')})`);
  const others = Object.keys(f).filter((k) => !SHOWN.has(k)).length;
  if (others > 0) lines.push(`other fields: ${others} not shown`);
  const notes = capsule.doc.notes;
  if (notes !== '') lines.push(level.notesMax > 0 ? `notes: ${inert(notes, { max: level.notesMax })}` : `notes: ${notes.length} characters not shown`);
  const filled = SECTION_KEYS.filter((k) => capsule.doc.sections[k].length > 0);
  if (filled.length === 0) return lines;
  if (level.bodyItems === 0) {
    const total = filled.reduce((n, k) => n + capsule.doc.sections[k].length, 0);
    lines.push(`BODY SECTIONS [REFERENCE ONLY]: ${total} items in ${filled.length} sections not shown`);
    return lines;
  }
  lines.push('BODY SECTIONS [REFERENCE ONLY] (a snapshot of past work, never a queue):');
  if (budget !== undefined && level.fill) {
    // Filled by value: what still needs action and every modified file before the rest.
    const picked = pickBody(capsule.doc.sections, { ...budget, room: budget.room - budget.measure(`${lines.join('\n')}\n`), itemMax: level.bodyItemMax });
    for (const key of filled) {
      const { items, hidden } = picked[key];
      const folded = capsule.doc.sections[key].filter((i) => /^… \d+ earlier items? folded$/.test(i)).length;
      const total = capsule.doc.sections[key].length - folded;
      lines.push(`${SECTION_TITLES[key]}${SECTION_ORDER_NOTE[key] ?? ''}: ${total} item${total === 1 ? '' : 's'}${hidden > 0 ? ` (${hidden} not shown)` : ''}`);
      for (const item of currentFirst(key, items, false)) lines.push(`  - ${inert(item, { max: level.bodyItemMax })}`);
    }
    return lines;
  }
  for (const key of filled) {
    const items = capsule.doc.sections[key];
    // Latest wins: a section's newest bullets are the ones kept, newest first, and what still
    // needs action before what does not (open errors, then resolved; modified files, then read).
    const shown = level.bodyItems > 0 ? currentFirst(key, items).slice(0, level.bodyItems) : [];
    const more = items.length - shown.length;
    lines.push(`${SECTION_TITLES[key]}${SECTION_ORDER_NOTE[key] ?? ''}: ${items.length} item${items.length === 1 ? '' : 's'}${more > 0 ? ` (${more} not shown)` : ''}`);
    for (const item of shown) lines.push(`  - ${inert(item, { max: level.bodyItemMax })}`);
  }
  return lines;
}

/** The quoted evidence, each value through inert() and bounded by `max` (0: a count only). */
function renderEvidence(f: SelectedCapsule['fields'], max: number): string[] {
  const present = EVIDENCE.filter(([k]) => typeof f[k] === 'string' && (f[k] as string).trim() !== '');
  if (present.length === 0) return [];
  if (max === 0) return [`QUOTED EVIDENCE: ${present.length} not shown`];
  return [`${EVIDENCE_HEADING}:`, ...present.map(([k, label]) => `  ${label}: ${inert(f[k], { max })}`)];
}

const SECTION_ORDER_NOTE: Partial<Record<SectionKey, string>> = {
  errors: ' (open first, newest first)',
  files: ' (modified first, newest first)',
};

// A section's items, newest first; errors and files grouped by what still needs action.
function currentFirst(key: SectionKey, items: readonly string[], reverse = true): string[] {
  const kept = items.filter((i) => !/^… \d+ earlier items? folded$/.test(i));
  const newest = reverse ? kept.reverse() : kept;
  if (key === 'errors') return [...newest.filter((i) => errorState(i) === 'open'), ...newest.filter((i) => errorState(i) === 'resolved')];
  if (key === 'files') return [...newest.filter((i) => fileKind(i) !== 'read'), ...newest.filter((i) => fileKind(i) === 'read')];
  return newest;
}

function restatesWriter(key: string, f: SelectedCapsule['fields']): boolean {
  if (key === 'trigger') return true; // the writer line names it
  if (key !== 'tags' || !Array.isArray(f.tags)) return false;
  const kind = detectWriter(f).kind;
  return kind === 'autosave' && f.tags.every((t) => t === 'autosave' || t === 'pre-compact');
}

function renderConsumption(c: Consumption): string {
  switch (c.state) {
    case 'consumed':
      return `consumption: marked resumed by ${inert(c.writer, { max: 120 })} before this text was returned; no later resume selects it.`;
    case 'kept':
      return 'consumption: NOT consumed (--no-consume): it stays active; the next resume selects it again.';
    case 'failed':
      return `consumption: FAILED [${c.code}]: no resumed event was written; it stays active and another session may load it too.`;
  }
}
