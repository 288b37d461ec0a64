import { rejectionSummary } from '../select/rejection-summary';
import type { Rejection } from '../select/types';
import type { DetailLevel } from './detail-levels';

/**
 * CAPSULES NOT SELECTED: the ledger grouped by reason with counts, so a systemic defect reads as
 * one line. Consumed and superseded capsules are ordinary history; every other reason is a capsule
 * authored and then discarded, called out as a defect until proven otherwise. Capsules that are
 * not this session's to take (another author, another machine, another live session, no identity
 * recorded) are listed apart, with who and where, and how to take one on purpose.
 */
export function renderLedger(rejected: readonly Rejection[], level: DetailLevel): string[] {
  if (rejected.length === 0) return ['CAPSULES NOT SELECTED: none'];
  const groups = rejectionSummary(rejected, { maxExamples: level.examples });
  const ordinary = groups.filter((g) => g.ordinary);
  const scoped = groups.filter((g) => g.scope);
  const defects = groups.filter((g) => !g.ordinary && !g.scope);
  const sum = (gs: typeof groups) => gs.reduce((n, g) => n + g.count, 0);
  const lines = [`CAPSULES NOT SELECTED (${sum(groups)}):`];
  if (level.ledgerTotalsOnly) {
    lines.push(`  ordinary history: ${sum(ordinary)}; not this session's: ${sum(scoped)}; DEFECTS until proven otherwise: ${sum(defects)} (git capsule list shows each)`);
    return lines;
  }
  let budget = level.maxGroups;
  const emit = (gs: typeof groups, withExamples: boolean) => {
    const shown = gs.slice(0, Math.max(0, budget));
    budget -= shown.length;
    for (const g of shown) {
      lines.push(`  ${g.line}`);
      if (withExamples) for (const e of g.examples) lines.push(`    e.g. ${e}`);
    }
    const rest = gs.slice(shown.length);
    if (rest.length > 0) lines.push(`  … ${rest.length} more reason${rest.length === 1 ? '' : 's'} (${sum(rest)} capsules) not shown; git capsule list shows each`);
  };
  if (defects.length > 0) {
    lines.push('  DEFECTS until proven otherwise (a capsule was written, then discarded; tell the user):');
    emit(defects, true);
  }
  if (scoped.length > 0) {
    lines.push("  not this session's (never resumed or consumed automatically; take one on purpose with git capsule resume --id <id>, or ask its author for a handoff capsule addressed to you):");
    emit(scoped, true);
  }
  if (ordinary.length > 0) {
    lines.push('  ordinary history (spent by an earlier resume, older than the one selected, or set aside on purpose; not a defect):');
    emit(ordinary, false);
  }
  return lines;
}
