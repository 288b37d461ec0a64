import { deriveBudgetPoints, resolveMargins } from '../budget/thresholds';
import type { HostBudget } from '../hosts/host';
import { readBudgetState, readCap } from '../local-state/budget-state';
import { sessionPart, type GatherBudgetOptions, type GatheredBudget } from './gathered-budget';
import { readMarginSources } from './margin-sources';

/**
 * gatherBudget for a host that brings its own fill and native point (HostBudget: the Codex
 * CLI): the same margins, cap and runtime state as on Claude Code, the host's numbers for the
 * rest. A runtime cap lowers the native point, as `git capsule budget cap` does on Claude
 * Code. Never throws for missing or damaged inputs.
 */
export function gatherHostBudget(opts: GatherBudgetOptions, host: HostBudget): GatheredBudget {
  let fill = opts.fill ?? null;
  let fillProblem: string | null = null;
  let window: number | null = null;
  if (fill === null && opts.transcriptPath === null) fillProblem = 'no transcript found';
  else if (fill === null && opts.transcriptPath !== null) {
    const read = host.readFill(opts.transcriptPath);
    if (!read.ok) fillProblem = read.message;
    else if (read.fill === null) fillProblem = `no token count in the last ${read.bytesRead} bytes of ${opts.transcriptPath}`;
    else [fill, window] = [read.fill, read.window];
  }
  const state = opts.runtimeDir !== null && opts.sessionId !== null ? readBudgetState(opts.runtimeDir, opts.sessionId) : null;
  const cap = opts.runtimeDir !== null ? readCap(opts.runtimeDir, opts.sessionId) : null;
  const margins = readMarginSources({ projectDir: opts.projectDir, gitConfig: opts.gitConfig });
  const native = host.nativePoint({ env: opts.env, projectDir: opts.projectDir, window });
  let resolution: GatheredBudget['resolution'];
  if (native.status !== 'ok') resolution = native;
  else {
    const point = cap !== null && cap < native.point.tokens ? { ...native.point, tokens: cap, window: Math.min(native.point.window, cap), windowSource: 'cap' as const } : native.point;
    const { margins: m, notes } = resolveMargins(margins.sources);
    const derived = deriveBudgetPoints(point, m);
    resolution = derived.ok ? { status: 'ok', points: derived.points, notes: [...native.notes, ...notes] } : { status: 'unresolvable', reason: derived.reason, notes: [...native.notes, ...notes] };
  }
  const model = opts.modelHint ?? state?.lastModel ?? null;
  const nextState = state === null ? null : { ...state, lastModel: model ?? state.lastModel };
  return {
    notes: [...new Set([...resolution.notes, ...margins.notes])],
    fill,
    fillProblem,
    model,
    resolution,
    reusedPoints: false,
    cap,
    settings: { merged: {}, files: [], notes: [] },
    margins,
    ...sessionPart(opts, nextState),
  };
}
