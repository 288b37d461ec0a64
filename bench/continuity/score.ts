import { parseResume } from './resume-lines';
import type { Reset, Scenario } from './scenario-types';

/** What one scenario scored after one reset. */
export interface ScenarioScore {
  scenario: string;
  reset: Reset;
  facts: number;
  hits: string[];
  misses: string[];
  violations: string[];
  /** Characters of the resume text in the first request after the reset (0: none arrived). */
  contextChars: number;
  /** Why the run could not be scored, when it could not. */
  error?: string;
  /** Why the scenario did not run on this host driver (it then counts in no total). */
  skipped?: string;
}

/** What a host driver hands the scorer: the resume text of the first request after the reset, and the memory branch's text. */
export interface ProbeResult {
  resumeText: string | null;
  /** Every document, event and commit message reachable from the memory branch. */
  branchText: string;
  error?: string;
  /** The driver cannot run this scenario (yet): nothing to score. */
  skipped?: string;
}

/**
 * Scores one probe: a fact is hit when a current-state line with one of its labels matches it;
 * an anti-fact is violated when it matches where it must not be (labelled lines, anywhere in the
 * resume text, an unquoted line of the data, or the memory branch).
 */
export function scoreProbe(scenario: Scenario, reset: Reset, probe: ProbeResult): ScenarioScore {
  if (probe.skipped !== undefined) return { scenario: scenario.name, reset, facts: 0, hits: [], misses: [], violations: [], contextChars: 0, skipped: probe.skipped };
  const text = probe.resumeText ?? '';
  const parsed = parseResume(text);
  const inLabels = (labels: readonly string[], pattern: string) => {
    const re = new RegExp(pattern, 'i');
    return parsed.lines.some((l) => labels.includes(l.label) && re.test(l.value));
  };
  const hits: string[] = [];
  const misses: string[] = [];
  for (const f of scenario.facts) (inLabels(f.in, f.pattern) ? hits : misses).push(f.id);
  const violations: string[] = [];
  for (const a of scenario.antiFacts) {
    const re = new RegExp(a.pattern, 'i');
    const found =
      a.in === 'anywhere' ? re.test(text)
      : a.in === 'branch' ? re.test(probe.branchText)
      : a.in === 'unquoted' ? parsed.dataLines.some((line) => re.test(line))
      : inLabels(a.in, a.pattern);
    if (found) violations.push(a.id);
  }
  const error = probe.error ?? (probe.resumeText === null ? 'no resume text in the first request after the reset' : undefined);
  return { scenario: scenario.name, reset, facts: scenario.facts.length, hits, misses, violations, contextChars: text.length, ...(error ? { error } : {}) };
}
