import { inert } from '../capsule/inert';
import { SCOPE_REASONS } from './scope';
import { ORDINARY_REASONS, type Rejection, type RejectionReason } from './types';

/** One group of the ledger: every rejection sharing a reason and detail, already safe to print. */
export interface RejectionGroup {
  reason: RejectionReason;
  count: number;
  ordinary: boolean;
  /** Not this session's to take (another author, machine or live session; no identity recorded): neither history nor a defect. */
  scope: boolean;
  /** `47x missing-required-field (next_valid_action)`: inert-rendered wherever a value is capsule-controlled. */
  line: string;
  /** Up to `maxExamples` members as `id "…" at "path"` (plus `value "…"`), every datum through inert(). */
  examples: string[];
}

/** Bound on one rendered id, path or value inside the ledger. */
export const LEDGER_VALUE_MAX = 80;

const SAFE_DETAIL = /^[A-Za-z0-9_ ,:.-]{0,120}$/;

/**
 * Groups the ledger by reason and detail with counts, largest first, ordinary history apart.
 * Applies inert() itself to ids, paths, values and any detail outside our vocabulary, so every
 * caller can print the result as is.
 *
 * @example rejectionSummary(selection.rejected).map((g) => g.line) // ['47x missing-required-field (next_valid_action)']
 */
export function rejectionSummary(rejected: readonly Rejection[], options: { maxExamples?: number } = {}): RejectionGroup[] {
  const maxExamples = Math.max(0, options.maxExamples ?? 3);
  const groups = new Map<string, { reason: RejectionReason; detail: string; value?: unknown; signature?: Rejection['signature']; members: Rejection[] }>();
  for (const r of rejected) {
    const key = JSON.stringify([r.reason, r.detail, valueKey(r), signatureKey(r.signature)]);
    const group = groups.get(key) ?? { reason: r.reason, detail: r.detail, value: valueKey(r) === undefined ? undefined : r.value, signature: r.signature, members: [] };
    group.members.push(r);
    groups.set(key, group);
  }
  return [...groups.values()]
    .map((g) => {
      const count = g.members.reduce((n, m) => n + (m.count ?? 1), 0);
      return {
        reason: g.reason,
        count,
        ordinary: isOrdinary(g.reason, g.detail),
        scope: SCOPE_REASONS.includes(g.reason),
        line: `${count}x ${g.reason} (${renderDetail(g.detail, g.value)})${renderSignature(g.signature)}`,
        examples: g.members.filter((m) => m.count === undefined).slice(0, maxExamples).map(renderExample),
      };
    })
    .sort((a, b) => Number(a.ordinary) - Number(b.ordinary) || Number(a.scope) - Number(b.scope) || b.count - a.count || (a.line < b.line ? -1 : 1));
}

/**
 * Ordinary history rather than a defect: spent or superseded capsules, and ones their author
 * set aside on purpose (paused, abandoned): a status someone wrote deliberately is not a capsule
 * discarded by mistake.
 */
export function isOrdinary(reason: RejectionReason, detail: string): boolean {
  return ORDINARY_REASONS.includes(reason) || (reason === 'not-active' && (detail === 'paused' || detail === 'abandoned'));
}

function renderExample(m: Rejection): string {
  const where = `id ${inert(m.id, { max: LEDGER_VALUE_MAX })} at ${inert(m.path, { max: LEDGER_VALUE_MAX })}`;
  return m.value === undefined || valueKey(m) !== undefined ? where : `${where} value ${inert(m.value, { max: LEDGER_VALUE_MAX })}`;
}

// Values group only when they are the same short scalar (a status; who and where a capsule came
// from); a value per capsule would split every group.
function valueKey(r: Rejection): unknown {
  if (r.value === undefined) return undefined;
  return r.reason === 'not-active' || SCOPE_REASONS.includes(r.reason) ? r.value : undefined;
}

function renderDetail(detail: string, value: unknown): string {
  const safe = SAFE_DETAIL.test(detail) ? detail : inert(detail, { max: LEDGER_VALUE_MAX });
  return value === undefined ? safe : `${safe} ${inert(value, { max: LEDGER_VALUE_MAX })}`;
}

// A group holds capsules git judged alike: verified ones by one signer, or unverified ones.
function signatureKey(signature: Rejection['signature']): unknown {
  if (signature === undefined) return undefined;
  return signature.verified ? ['verified', signature.signer] : 'unverified';
}

/**
 * `, signature verified (signed by "b@example.com")` or `, signature unverified (not signed)`:
 * what git's own check (its allowed signers, its keyring) says of the commit that brought the
 * capsule in. The signer is git's output about data anyone can push: rendered through inert().
 */
function renderSignature(signature: Rejection['signature']): string {
  if (signature === undefined) return '';
  if (signature.verified) return `, signature verified (signed by ${inert(signature.signer ?? 'unknown signer', { max: LEDGER_VALUE_MAX })})`;
  return `, signature unverified (${signature.status === 'N' ? 'not signed' : `git says ${/^[A-Z]$/.test(signature.status) ? signature.status : '?'}`})`;
}
