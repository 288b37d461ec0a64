import type { ContextFill } from '../budget/context-fill';
import { resolveBudget } from '../budget/resolve-budget';
import { readBudgetState, readCap } from '../local-state/budget-state';
import { readClaudeSettings } from '../hosts/claude/merged-settings';
import { gatherHostBudget } from './gather-host-budget';
import { sessionPart, type GatherBudgetOptions, type GatheredBudget } from './gathered-budget';
import { readMarginSources } from './margin-sources';
import { readTranscriptFill } from '../hosts/claude/transcript-fill';

export type { GatherBudgetOptions, GatheredBudget } from './gathered-budget';

/**
 * Reads the transcript tail, Claude's settings, the margins, the cap and the session's runtime
 * state, then resolves the points (reusing the cached ones while their inputs match). Never
 * throws for missing or damaged inputs: each becomes a note or a null.
 */
export function gatherBudget(opts: GatherBudgetOptions): GatheredBudget {
  if (opts.host) return gatherHostBudget(opts, opts.host);
  let fill: ContextFill | null = null;
  let fillProblem: string | null = null;
  if (opts.fill) fill = opts.fill;
  else if (opts.transcriptPath === null) fillProblem = 'no transcript found';
  else {
    const read = readTranscriptFill(opts.transcriptPath);
    if (!read.ok) fillProblem = read.message;
    else if (read.fill === null) fillProblem = `no main-chain usage in the last ${read.bytesRead} bytes of ${opts.transcriptPath}`;
    else fill = read.fill;
  }
  const state = opts.runtimeDir !== null && opts.sessionId !== null ? readBudgetState(opts.runtimeDir, opts.sessionId) : null;
  const model = fill?.model ?? opts.modelHint ?? state?.lastModel ?? null;
  const cap = opts.runtimeDir !== null ? readCap(opts.runtimeDir, opts.sessionId) : null;
  const settings = readClaudeSettings({ env: opts.env, projectDir: opts.projectDir });
  const margins = readMarginSources({ projectDir: opts.projectDir, gitConfig: opts.gitConfig });
  // A window the status line reported for this very model beats the catalog (it sees `[1m]`).
  const remembered = state?.hostWindow && model !== null && state.hostWindow.model === model ? state.hostWindow.tokens : undefined;
  const reportedWindow = opts.reportedWindow ?? remembered;
  const { resolution, cache, reused } = resolveBudget(
    { model, env: opts.env, settings: settings.merged, capTokens: cap, reportedWindow, margins: margins.sources },
    state?.pointsCache,
  );
  const nextState = state === null ? null : { ...state, lastModel: model ?? state.lastModel, pointsCache: cache };
  return {
    notes: [...new Set([...resolution.notes, ...settings.notes, ...margins.notes])],
    fill,
    fillProblem,
    model,
    resolution,
    reusedPoints: reused,
    cap,
    settings,
    margins,
    ...sessionPart(opts, nextState),
  };
}
