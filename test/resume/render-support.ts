import type { Consumption } from '../../lib/resume/capsule-data';
import type { ExtensionState } from '../../lib/resume/declared-ack';
import type { HeadDrift } from '../../lib/resume/head-drift';
import { renderResume, type RenderedResume } from '../../lib/resume/render-resume';
import { resolveSessionAuthority, type BootReceipt } from '../../lib/resume/session-authority';
import type { TextLimit } from '../../lib/resume/text-limit';
import { selectCapsule } from '../../lib/select/select-capsule';
import type { Candidate } from '../../lib/select/types';
import { capsuleDoc, pathOf, ulid } from '../support/capsule-doc';

/** The run's clock; every age in these tests is computed relative to it. */
export const NOW = new Date('2026-11-29T22:00:00Z');

/** A stamp `ms` before NOW. */
export function ago(ms: number): string {
  return new Date(NOW.getTime() - ms).toISOString();
}

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

/** An active candidate with a valid document (fields merged over the defaults). */
export function activeCandidate(n: number, fields: Record<string, unknown> = {}, sections = {}, notes = ''): Candidate {
  const id = ulid(n);
  return { id, path: pathOf(id), status: 'active', text: capsuleDoc({ id, ...fields }, sections, notes) };
}

/** Selects among `candidates` and renders the resume text with the given context. */
export function renderFor(
  candidates: Candidate[],
  opts: { hookId?: unknown; receipt?: BootReceipt | null; extension?: ExtensionState; headDrift?: HeadDrift; consumption?: Consumption; maxChars?: number; limit?: TextLimit } = {},
): RenderedResume {
  const selection = selectCapsule(candidates, { now: NOW });
  return renderResume({
    now: NOW,
    selection,
    session: resolveSessionAuthority('hookId' in opts ? opts.hookId : 'session-B', opts.receipt ?? null),
    headDrift: opts.headDrift ?? { state: 'no-repo-head' },
    extension: opts.extension ?? { state: 'none' },
    consumption: opts.consumption ?? { state: 'consumed', writer: 'session-B' },
    ...(opts.maxChars === undefined ? {} : { maxChars: opts.maxChars }),
    ...(opts.limit === undefined ? {} : { limit: opts.limit }),
  });
}

/** The lines of a text. */
export function lines(text: string): string[] {
  return text.split('\n');
}
