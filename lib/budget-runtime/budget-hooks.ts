import { renderBudgetBlockReason, renderBudgetWarning } from '../budget/budget-message';
import { decideBudget, type BudgetEvent } from '../budget/decide';
import { isErrorCode, type ErrorCode } from '../errors/error-codes';
import { emptyBudgetState, writeBudgetState } from '../local-state/budget-state';
import { peekCachedConfig } from '../local-state/cached-config';
import { gatherBudget } from './gather-budget';
import type { HostBudget } from '../hosts/host';

/** The part of a hook's context the budget uses (a subset of lib/hooks' HookContext). */
export interface BudgetHookContext {
  env: NodeJS.ProcessEnv;
  projectDir: string;
  runtimeDir: string;
  /** Logs a non-fatal finding with its code. */
  warn: (code: ErrorCode, message: string) => void;
  /**
   * `git config` values the hook read through the cached config reader (capsule.* keys,
   * lower-cased); absent when that read failed or the hook starts no git (UserPromptSubmit):
   * then the cache as the last reader left it, else none (the default margins).
   */
  gitConfig?: Readonly<Record<string, string>>;
  /** The hook's host adapter: its budget inputs, when it brings its own (HostAdapter.budget). */
  host?: { budget?: HostBudget };
}

/** The payload fields the budget reads. */
export interface BudgetHookInput {
  session_id?: string;
  transcript_path?: string;
  cwd: string;
}

/**
 * UserPromptSubmit: once per context window, from the warning point, the warning text to put
 * into `additionalContext`; undefined otherwise. An unresolvable point or DISABLE_COMPACT is
 * logged once per session. Never throws: a failure is logged and the hook goes on.
 */
export function budgetOnUserPromptSubmit(input: BudgetHookInput, ctx: BudgetHookContext): { additionalContext: string } | undefined {
  const outcome = guarded(ctx, () => runBudget('UserPromptSubmit', input, ctx, false));
  return outcome?.action === 'warn' ? { additionalContext: renderBudgetWarning(outcome.fill, outcome.points) } : undefined;
}

/**
 * Stop: once per context window, from the hard point, a block whose reason asks for the capsule
 * now and a /clear after; never while `stop_hook_active` is true; undefined otherwise.
 */
export function budgetOnStop(input: BudgetHookInput & { stop_hook_active?: boolean }, ctx: BudgetHookContext): { block: { reason: string } } | undefined {
  return planBudgetOnStop(input, ctx).apply();
}

/** Stop's budget, read and decided, with nothing written yet (planBudgetOnStop). */
export interface StopBudgetPlan {
  /** Keeps the decision in the session's budget state and returns the block, if any. Never throws. */
  apply: () => { block: { reason: string } } | undefined;
}

/**
 * Stop's budget in two steps: the reads and the decision now, the state write (which spends the
 * window's block) only at `apply`. Stop plans while its autosave's commit is with git, the one
 * wait of the hook, and applies after the commit succeeded, so a failed autosave still leaves
 * the block for the next Stop. Never throws: a failure is logged and the plan says nothing.
 */
export function planBudgetOnStop(input: BudgetHookInput & { stop_hook_active?: boolean }, ctx: BudgetHookContext): StopBudgetPlan {
  const planned = guarded(ctx, () => planBudget('Stop', input, ctx, input.stop_hook_active === true));
  return {
    apply: () => {
      if (planned === undefined) return undefined;
      const outcome = guarded(ctx, () => planned.apply());
      return outcome?.action === 'block' ? { block: { reason: renderBudgetBlockReason(outcome.fill, outcome.points) } } : undefined;
    },
  };
}

function gitConfigOf(ctx: BudgetHookContext): Readonly<Record<string, string>> {
  return ctx.gitConfig ?? peekCachedConfig(ctx.projectDir, ctx.env)?.values ?? {};
}

/**
 * The budget fails open inside a hook that also does other work (Stop's autosave): any error
 * is logged with its code and the hook goes on as if the budget had nothing to say.
 */
function guarded<T>(ctx: BudgetHookContext, work: () => T | undefined): T | undefined {
  try {
    return work();
  } catch (err) {
    const code = isErrorCode((err as { code?: unknown })?.code) ? (err as { code: ErrorCode }).code : 'BUDGET_FAILED';
    ctx.warn(code, `budget check skipped: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

interface Outcome {
  action: 'warn' | 'block' | 'none';
  fill: number;
  points: Extract<ReturnType<typeof gatherBudget>['resolution'], { status: 'ok' }>['points'];
}

function runBudget(event: BudgetEvent, input: BudgetHookInput, ctx: BudgetHookContext, stopHookActive: boolean): Outcome | undefined {
  return planBudget(event, input, ctx, stopHookActive)?.apply();
}

/** The budget read and decided; `apply` writes the session's budget state and returns the outcome. */
function planBudget(event: BudgetEvent, input: BudgetHookInput, ctx: BudgetHookContext, stopHookActive: boolean): { apply: () => Outcome | undefined } | undefined {
  // Without a session and its transcript there is nothing to measure and nowhere to keep flags.
  if (!input.session_id || !input.transcript_path) return undefined;
  // UserPromptSubmit runs before every prompt and starts no git process: it reads the config
  // cache the last SessionStart or Stop refreshed (their reads run git when the cache is stale).
  const gitConfig = gitConfigOf(ctx);
  const g = gatherBudget({
    cwd: input.cwd,
    env: ctx.env,
    projectDir: ctx.projectDir,
    runtimeDir: ctx.runtimeDir,
    transcriptPath: input.transcript_path,
    sessionId: input.session_id,
    gitConfig,
    host: ctx.host?.budget,
  });
  const state = g.state ?? emptyBudgetState();
  const r = g.resolution;
  if (r.status === 'disabled') return undefined;
  // A pending resolution (inputs that arrive with the first answer) is no problem to log.
  const code: ErrorCode | null = r.status === 'unresolvable' && r.pending ? null : r.status === 'unresolvable' ? 'BUDGET_UNRESOLVABLE' : r.status === 'suppressed' ? 'BUDGET_SUPPRESSED' : null;
  const reason = r.status === 'unresolvable' ? `BUDGET_UNRESOLVABLE ${r.reason}` : r.status === 'suppressed' ? 'BUDGET_SUPPRESSED DISABLE_COMPACT' : null;
  if (code !== null && reason !== null && state.loggedReason !== reason) {
    ctx.warn(code, r.status === 'suppressed' ? 'DISABLE_COMPACT is set: no budget warning and no block in this session' : `no budget warning: ${reason.slice(code.length + 1)}`);
    state.loggedReason = reason;
  }
  let outcome: Outcome | undefined;
  if (r.status === 'ok' && g.fill !== null && g.windowId !== null) {
    const decision = decideBudget({ fill: g.fill.tokens, points: r.points, flags: state, windowId: g.windowId, stopHookActive, event });
    state.warnedWindow = decision.flags.warnedWindow;
    state.blockedWindow = decision.flags.blockedWindow;
    outcome = { action: decision.action, fill: g.fill.tokens, points: r.points };
  }
  const sessionId = input.session_id;
  return {
    apply: () => {
      writeBudgetState(ctx.runtimeDir, sessionId, state);
      return outcome;
    },
  };
}
