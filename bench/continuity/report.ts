import type { Reset } from './scenario-types';
import type { ScenarioScore } from './score';

/** The totals of a set of scores. */
export interface Totals {
  hits: number;
  facts: number;
  violations: number;
  maxContext: number;
}

/** Sums hits, facts, violations and the largest context of some scores. */
export function totals(all: readonly ScenarioScore[]): Totals {
  const scores = all.filter((s) => s.skipped === undefined);
  return {
    hits: scores.reduce((n, s) => n + s.hits.length, 0),
    facts: scores.reduce((n, s) => n + s.facts, 0),
    violations: scores.reduce((n, s) => n + s.violations.length, 0),
    maxContext: scores.reduce((n, s) => Math.max(n, s.contextChars), 0),
  };
}

/** `recall X/Y (P%), violations V, max context C chars` */
export function totalsLine(t: Totals): string {
  const pct = t.facts === 0 ? 0 : (100 * t.hits) / t.facts;
  return `recall ${t.hits}/${t.facts} (${pct.toFixed(0)}%), violations ${t.violations}, max context ${t.maxContext.toLocaleString('en-US')} chars`;
}

/** The report: a row per scenario and reset with its misses and violations, then the totals after each reset and overall. */
export function renderReport(scores: readonly ScenarioScore[]): string {
  const lines = [`${'scenario'.padEnd(34)} ${'reset'.padEnd(8)} ${'facts'.padEnd(6)} ${'violations'.padEnd(10)} context`];
  for (const s of scores) {
    if (s.skipped !== undefined) {
      lines.push(`${s.scenario.padEnd(34)} ${s.reset.padEnd(8)} skipped: ${s.skipped}`);
      continue;
    }
    lines.push(`${s.scenario.padEnd(34)} ${s.reset.padEnd(8)} ${`${s.hits.length}/${s.facts}`.padEnd(6)} ${String(s.violations.length).padEnd(10)} ${s.contextChars.toLocaleString('en-US')}`);
    if (s.error) lines.push(`    error: ${s.error}`);
    for (const m of s.misses) lines.push(`    miss: ${m}`);
    for (const v of s.violations) lines.push(`    VIOLATION: ${v}`);
  }
  lines.push('');
  for (const reset of ['clear', 'compact'] as Reset[]) {
    const some = scores.filter((s) => s.reset === reset);
    if (some.length > 0) lines.push(`after /${reset}: ${totalsLine(totals(some))}`);
  }
  lines.push(`all:${' '.repeat(10)}${totalsLine(totals(scores))}`);
  return lines.join('\n');
}
