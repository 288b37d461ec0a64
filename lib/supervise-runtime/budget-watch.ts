import type { BudgetResolution } from '../budget/resolve-budget';
import { gatherBudget } from '../budget-runtime/gather-budget';
import { createGitRunner } from '../git/git-runner';
import { findTranscriptPath } from '../hosts/claude/find-transcript';
import { readCachedConfig } from '../local-state/cached-config';

type Where = { cwd: string; env: NodeJS.ProcessEnv; projectDir: string; runtimeDir: string | null };

/** A fill of the main conversation with the budget resolved for it. */
export interface WatchedFill {
  tokens: number;
  resolution: BudgetResolution;
}

/**
 * The budget policy as the client's own hooks apply it: the same settings, environment,
 * margins, cap and model catalog (lib/budget-runtime/gather-budget.ts), so the supervisor's
 * hard point is the Stop hook's. `git config capsule.*` is read once, not on every event.
 */
export class BudgetWatch {
  private constructor(
    private readonly where: Where,
    private readonly gitConfig: Readonly<Record<string, string>>,
  ) {}

  /** Reads `git config capsule.*` through the one cached reader; unreadable config leaves the defaults (as in the hooks). */
  static async open(where: Where): Promise<BudgetWatch> {
    let values: Readonly<Record<string, string>> = {};
    try {
      values = (await readCachedConfig(createGitRunner({ cwd: where.projectDir, env: where.env }))).values;
    } catch {
      // Outside a repository, or git refused: the margins fall back to the defaults, as the hooks' would.
    }
    return new BudgetWatch(where, values);
  }

  /** Resolves the points for a fill the client's stream reported. */
  resolve(sessionId: string | null, fill: { tokens: number; model: string | null }): WatchedFill {
    const g = this.gather(sessionId, null, { tokens: fill.tokens, model: fill.model, source: 'usage', uuid: null });
    return { tokens: fill.tokens, resolution: g.resolution };
  }

  /** The points before any fill is known, for a model named in advance (the dry run's plan). */
  plan(model: string | null): BudgetResolution {
    return gatherBudget({ ...this.where, sessionId: null, transcriptPath: null, fill: null, modelHint: model, gitConfig: this.gitConfig }).resolution;
  }

  /** The fill read from the session's transcript (when a turn's events carried none), or null. */
  fromTranscript(sessionId: string | null): WatchedFill | null {
    if (sessionId === null) return null;
    const transcript = findTranscriptPath({ env: this.where.env, projectDirs: [this.where.projectDir, this.where.cwd], sessionId });
    if (transcript === null) return null;
    const g = this.gather(sessionId, transcript, null);
    return g.fill === null ? null : { tokens: g.fill.tokens, resolution: g.resolution };
  }

  private gather(sessionId: string | null, transcriptPath: string | null, fill: Parameters<typeof gatherBudget>[0]['fill']) {
    return gatherBudget({ ...this.where, sessionId, transcriptPath, fill, gitConfig: this.gitConfig });
  }
}
