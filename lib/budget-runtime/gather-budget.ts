import type { ContextFill } from '../budget/context-fill';
import { resolveBudget, type BudgetResolution } from '../budget/resolve-budget';
import { readBudgetState, windowIdOf, readCap, type SessionBudgetState } from '../local-state/budget-state';
import { readClaudeSettings, type ClaudeSettings } from '../hosts/claude/merged-settings';
import type { HostBudget } from '../hosts/host';
import { gatherHostBudget } from './gather-host-budget';
import { readMarginSources, type ReadMarginSources } from './margin-sources';
import { readTranscriptFill } from '../hosts/claude/transcript-fill';

/** What gatherBudget needs to know; each path is already located. */
export interface GatherBudgetOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  projectDir: string;
  runtimeDir: string | null;
  transcriptPath: string | null;
  sessionId: string | null;
  /** A model id known from elsewhere (status line, SessionStart), used when the transcript names none. */
  modelHint?: string | null;
  /** The window the host reported (status line), if any. */
  reportedWindow?: unknown;
  /** A fill the host reported (status line `current_usage`); the transcript is not read then. */
  fill?: ContextFill | null;
  /** `git config capsule.*` values, read by the caller through the one cached config reader (lib/local-state). */
  gitConfig: Readonly<Record<string, string>>;
  /** A host that brings its own fill and native point (the Codex CLI); absent: Claude Code's rules. */
  host?: HostBudget;
}

/** Everything the budget read, and the resolution. */
export interface GatheredBudget {
  fill: ContextFill | null;
  /** Why there is no fill, when there is none. */
  fillProblem: string | null;
  model: string | null;
  resolution: BudgetResolution;
  reusedPoints: boolean;
  cap: number | null;
  settings: ClaudeSettings;
  margins: ReadMarginSources;
  state: SessionBudgetState | null;
  windowId: string | null;
  transcriptPath: string | null;
  sessionId: string | null;
  runtimeDir: string | null;
  /** Every ignored input, once each. */
  notes: string[];
}

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

/** The part of a gathered budget that names the session and its runtime state, the same for every host. */
export function sessionPart(
  opts: GatherBudgetOptions,
  nextState: SessionBudgetState | null,
): Pick<GatheredBudget, 'state' | 'windowId' | 'transcriptPath' | 'sessionId' | 'runtimeDir'> {
  return {
    state: nextState,
    windowId: nextState !== null && opts.sessionId !== null ? windowIdOf(opts.sessionId, nextState) : null,
    transcriptPath: opts.transcriptPath,
    sessionId: opts.sessionId,
    runtimeDir: opts.runtimeDir,
  };
}
