import type { ContextFill } from '../budget/context-fill';
import type { BudgetResolution } from '../budget/resolve-budget';
import type { ClaudeSettings } from '../hosts/claude/merged-settings';
import type { HostBudget } from '../hosts/host';
import { windowIdOf, type SessionBudgetState } from '../local-state/budget-state';
import type { ReadMarginSources } from './margin-sources';

// The shapes every host's budget gathering shares, in a file of their own so that the Claude
// path (gather-budget) and the host path (gather-host-budget) both import them without
// importing each other.

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
