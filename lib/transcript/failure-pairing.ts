import type { CheckKind } from './command-shape';
import type { RunnerReport } from './runner-report';

/** A failure not yet followed by the run that fixed it, carried from one transcript delta to the next. */
export interface OpenFailure {
  /** The error as the autosave lists it: what ran, then the line that matters. */
  text: string;
  /** The same call: the tool and its normalized command, or the tool and its file. */
  signature: string;
  /** For a Bash command: what it runs (`npm test`), its filter arguments and the kind of check. */
  family?: string;
  args?: string[];
  kind?: CheckKind;
  /** Test files the failing run reported failing. */
  files?: string[];
  /** The Bash call's `description`, normalized. */
  description?: string;
}

/** What a successful call offers as evidence that it fixed an earlier failure. */
export interface SuccessEvidence {
  signature: string;
  /** How the success reads in a resolution (`` `npm test` ``). */
  label: string;
  family?: string;
  args?: string[];
  kind?: CheckKind;
  description?: string;
  report?: RunnerReport;
}

const CHECKS: readonly CheckKind[] = ['test', 'lint', 'typecheck', 'build'];
// Words that only say a run is repeated; two descriptions equal without them describe one intent.
const REPEAT_WORDS = /\b(?:again|re-?run|re-?try|retry|once more|now|the|a|an|one more time)\b/g;

/**
 * Whether a successful call fixed an open failure, and what to say it was resolved by; null
 * when it did not. The same call, the same check run as broadly or more broadly (`npm test`
 * after `npm test -- auth`), a run whose passing test files cover every file that failed, or
 * the same Bash `description`. A success whose runner still reports failures fixes nothing.
 *
 * @example resolutionBy({ signature: 'Bash:npm test', label: '`npm test`', family: 'npm test', args: [], kind: 'test' }, failure)
 */
export function resolutionBy(success: SuccessEvidence, failure: OpenFailure): string | null {
  const report = success.report;
  if (report?.failed !== undefined && report.failed > 0) return null;
  const verb = success.kind !== undefined && CHECKS.includes(success.kind) ? 'passed' : 'succeeded';
  const by = `${success.label} ${verb}${report?.summary ? ` (${report.summary})` : ''}`;
  if (success.signature === failure.signature) return by;
  if (success.family !== undefined && success.family === failure.family && success.kind !== undefined && CHECKS.includes(success.kind)) {
    // Flags (`--fix`, `--ci`) do not narrow a run; operands (a file, a pattern) do.
    const failed = new Set(operands(failure.args));
    if (operands(success.args).every((a) => failed.has(a))) return by;
  }
  const files = failure.files ?? [];
  if (files.length > 0 && report !== undefined && files.every((f) => report.passedFiles.includes(f))) return by;
  if (success.description !== undefined && success.description === failure.description) return by;
  return null;
}

function operands(args: readonly string[] | undefined): string[] {
  return (args ?? []).filter((a) => !a.startsWith('-'));
}

/** A Bash description reduced to its intent, or undefined when too little is left to compare. */
export function normalizeDescription(description: unknown): string | undefined {
  if (typeof description !== 'string') return undefined;
  const words = description.slice(0, 500).toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').replace(REPEAT_WORDS, ' ').split(/\s+/).filter(Boolean);
  return words.length >= 2 ? words.join(' ') : undefined;
}

/** How many open failures a capsule carries in `open_checks`. */
export const MAX_OPEN_CHECKS = 20;

/**
 * The pairing data of open failures as a capsule carries it (`open_checks`, one compact JSON
 * object a line: the error's text, its call signature, the check's family, arguments and kind,
 * the failing test files, the description), so any later session, after a /clear or on another
 * machine, resolves the error when the same check passes. Bounded, newest last.
 *
 * @example encodeOpenChecks([{ text: '`npm test` (exit 1): boom', signature: 'Bash:npm test', family: 'npm test', args: [], kind: 'test' }])
 */
export function encodeOpenChecks(failures: readonly OpenFailure[]): string[] {
  return failures.slice(-MAX_OPEN_CHECKS).map((f) => JSON.stringify({
    text: f.text,
    signature: f.signature.slice(0, 500),
    ...(f.family !== undefined ? { family: f.family } : {}),
    ...(f.args !== undefined ? { args: f.args.slice(0, 20) } : {}),
    ...(f.kind !== undefined ? { kind: f.kind } : {}),
    ...(f.files !== undefined ? { files: f.files.slice(0, 20) } : {}),
    ...(f.description !== undefined ? { description: f.description } : {}),
  }));
}

/** The open failures a capsule's `open_checks` carries; entries of another shape are skipped, never trusted. */
export function decodeOpenChecks(value: unknown): OpenFailure[] {
  if (!Array.isArray(value)) return [];
  const out: OpenFailure[] = [];
  for (const item of value.slice(-MAX_OPEN_CHECKS)) {
    if (typeof item !== 'string' || item.length > 4000) continue;
    let f: unknown;
    try {
      f = JSON.parse(item);
    } catch {
      continue; // a hand-edited or foreign entry: skipped, the error stays listed as it is
    }
    const o = f as Partial<OpenFailure> | null;
    if (typeof o !== 'object' || o === null || typeof o.text !== 'string' || typeof o.signature !== 'string') continue;
    const strings = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);
    const kind = typeof o.kind === 'string' && (CHECKS as readonly string[]).concat(['other']).includes(o.kind) ? o.kind : undefined;
    out.push({
      text: o.text, signature: o.signature,
      ...(typeof o.family === 'string' ? { family: o.family } : {}),
      ...(strings(o.args) ? { args: strings(o.args) } : {}),
      ...(kind !== undefined ? { kind } : {}),
      ...(strings(o.files) ? { files: strings(o.files) } : {}),
      ...(typeof o.description === 'string' ? { description: o.description } : {}),
    });
  }
  return out;
}

/** Open failures from two sources, one per signature, the later source's copy winning. */
export function unionFailures(first: readonly OpenFailure[], second: readonly OpenFailure[]): OpenFailure[] {
  const bySignature = new Map<string, OpenFailure>();
  for (const f of [...first, ...second]) {
    bySignature.delete(f.signature);
    bySignature.set(f.signature, f);
  }
  return [...bySignature.values()];
}
