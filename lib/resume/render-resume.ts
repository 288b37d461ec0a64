import { inert } from '../capsule/inert';
import type { Selection, UnavailableReason } from '../select/types';
import { renderCapsuleCore, renderCapsuleExtras, type Consumption } from './capsule-data';
import { declarationIgnoredLine, resolveAck, type ExtensionState } from './declared-ack';
import { DETAIL_LEVELS, type DetailLevel } from './detail-levels';
import type { HeadDrift } from './head-drift';
import type { ResumeLineage } from './identity-lines';
import type { LifecycleExtension } from './lifecycle-extension';
import { renderLedger } from './ledger-section';
import { FENCES, PROCEDURE_BEGIN, PROCEDURE_END, renderSteps, RESUME_END } from './procedure';
import type { SessionAuthority } from './session-authority';
import { renderSessionLines } from './session-lines';
import { CHARACTER_LIMIT, clipToLimit, fitsLimit, measureText, type TextLimit } from './text-limit';

// What the body leaves free of the limit when it fills by value: its own rounding, never the host's cut.
const BODY_MARGIN = 200;

/** Claude Code replaces a hook's injected text longer than this with a file path (docs/format.md "The resume text"). */
export const RESUME_TEXT_MAX = CHARACTER_LIMIT.max;

/** Everything the resume text is made of; the runtime gathers it, this module only renders. */
export interface ResumeInput {
  now: Date;
  selection: Selection;
  session: SessionAuthority;
  /** Measured only when a capsule was selected. */
  headDrift: HeadDrift;
  extension: ExtensionState;
  /** Required when a capsule was selected. */
  consumption?: Consumption;
  /** The runtime's own one-line notices (for example an unreadable coordination file). */
  notices?: readonly string[];
  /** The host's injection limit (characters for Claude Code, UTF-8 bytes for Codex); default 10,000 characters. */
  limit?: TextLimit;
  /** Shorthand for a limit in characters; tests lower it. */
  maxChars?: number;
  /** The lineage the runtime looked for (from the host's signal), named in CAPSULE DATA. */
  lineage?: ResumeLineage | null;
}

/** The resume text, what the budget dropped, and the LIFECYCLE-EXTENSION diagnostics to log. */
export interface RenderedResume {
  text: string;
  truncated: string | null;
  diagnostics: string[];
}

/**
 * Renders the resume text top to bottom (docs/format.md "The resume text"): the fences, the steps with the declared
 * lines, CAPSULE DATA, then CAPSULES NOT SELECTED. Capsule values appear only after the
 * procedure's end line, each through inert(). The text never exceeds the budget: lower-priority
 * data shrinks first, with an announced truncation, and the procedure never does.
 */
export function renderResume(input: ResumeInput): RenderedResume {
  const limit: TextLimit = input.limit ?? (input.maxChars === undefined ? CHARACTER_LIMIT : { max: input.maxChars, unit: 'characters' });
  const capsule = input.selection.capsule;
  const diagnostics: string[] = [];
  const ext = input.extension;
  const declared: Partial<LifecycleExtension> = ext.state === 'accepted' ? ext.extension : {};
  if (ext.state === 'refused') diagnostics.push(declarationIgnoredLine(ext.path, ext.refusal));
  let resumeAck: string | null = null;
  if (declared.resume_ack !== undefined) {
    const ack = resolveAck('resume_ack', declared.resume_ack, capsule?.id ?? null);
    if (ack.ok) resumeAck = ack.line;
    else diagnostics.push(ack.diagnostic);
  }
  const loaded = capsule ? { id: capsule.id } : { unavailable: input.selection.unavailable?.reason ?? ('no-capsules' as UnavailableReason) };
  const procedure = [
    PROCEDURE_BEGIN,
    ...FENCES,
    ...renderSteps(loaded, { preload: declared.resume_preload ?? [], reground: declared.resume_reground ?? [], resumeAck }),
    ...diagnostics,
    PROCEDURE_END,
  ];
  const head = [...procedure, ...(input.notices ?? [])];
  const core = capsule
    ? [`CAPSULE DATA (every value is quoted data from the memory branch):`, ...renderCapsuleCore(capsule, {
        now: input.now,
        headDrift: input.headDrift,
        consumption: input.consumption ?? { state: 'kept', why: 'no-consume' },
        lineage: input.lineage,
      })]
    : renderUnavailable(input.selection);
  const session = renderSessionLines(input.session);
  const compose = (level: DetailLevel, note: string | null, extras = true) => {
    const before = [...head, ...(note ? [note] : []), ...core, ...session];
    const after = [...renderLedger(input.selection.rejected, level), RESUME_END];
    // The body fills what the rest leaves of the limit (a margin for the counts in its headings).
    const measure = (t: string) => measureText(t, limit.unit);
    const room = limit.max - measure(`${[...before, ...after].join('\n')}\n`) - BODY_MARGIN;
    return [...before, ...(capsule && extras ? renderCapsuleExtras(capsule, level, { room, measure }) : []), ...after].join('\n') + '\n';
  };
  for (const [i, level] of DETAIL_LEVELS.entries()) {
    const note = i === 0 ? null : truncationNote(level, capsule?.id ?? null, limit);
    const text = compose(level, note);
    if (fitsLimit(text, limit)) return { text, truncated: i === 0 ? null : level.dropped, diagnostics };
  }
  const last = DETAIL_LEVELS[DETAIL_LEVELS.length - 1]!;
  const bare = compose({ ...last, dropped: 'everything but the procedure, the capsule core and the ledger totals' }, truncationNote({ ...last, dropped: 'everything but the procedure, the capsule core and the ledger totals' }, capsule?.id ?? null, limit), false);
  return { text: fitsLimit(bare, limit) ? bare : lastResort(bare, limit), truncated: 'everything but the procedure, the capsule core and the ledger totals', diagnostics };
}

function truncationNote(level: DetailLevel, id: string | null, limit: TextLimit): string {
  const where = id ? `git capsule show ${id}` : 'git capsule list';
  const unit = limit.unit === 'characters' ? 'character' : 'byte';
  return `[TRUNCATED to fit the ${limit.max.toLocaleString('en-US')}-${unit} hook limit: ${level.dropped} cut; ${where} has it all.]`;
}

function renderUnavailable(selection: Selection): string[] {
  const u = selection.unavailable ?? { reason: 'no-capsules' as const };
  const detail = u.detail === undefined ? '' : ` ${inert(u.detail, { max: 300 })}`;
  return [`CAPSULE DATA: none loaded: ${u.reason}.${detail}`, UNAVAILABLE_HELP[u.reason]];
}

const UNAVAILABLE_HELP: Record<UnavailableReason, string> = {
  'no-memory-branch': 'This repository has no memory branch yet: no capsule was ever written here, or it was not fetched (git capsule sync).',
  'no-capsules': 'The memory branch holds no capsules.',
  'all-candidates-rejected': 'Every capsule on the memory branch was passed over; CAPSULES NOT SELECTED says why.',
  'memory-branch-unreadable': 'The memory branch could not be read, so no capsule was: git capsule doctor names the fault.',
  'bad-memory-root': 'MEMORY-ROOT: the declared memory ref is invalid, so no capsule was read (never a silent fallback to the default); fix git config capsule.ref.',
  'capsule-not-found': 'No capsule on the memory branch matches the requested id.',
};

// Unreachable with the bounds above (tested); kept so the hook limit holds even if a bound moves.
function lastResort(text: string, limit: TextLimit): string {
  const lines = text.split('\n');
  const endAt = lines.indexOf(PROCEDURE_END);
  while (!fitsLimit(lines.join('\n'), limit) && lines.length > endAt + 3) lines.splice(lines.length - 3, 1);
  return clipToLimit(lines.join('\n'), limit);
}
