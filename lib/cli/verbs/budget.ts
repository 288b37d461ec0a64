import { resolve } from 'node:path';
import type { ContextFill } from '../../budget/context-fill';
import { resolveMargins } from '../../budget/thresholds';
import { OUTPUT_RESERVE_CAP, SUMMARY_BUFFER } from '../../budget/native-point';
import { formatTokens, parseTokenCount } from '../../budget/token-count';
import { readCap, writeCap } from '../../local-state/budget-state';
import { locateBudget } from '../../local-state/locate-project';
import { findTranscriptPath, sessionIdOfTranscript } from '../../hosts/claude/find-transcript';
import { gatherBudget, type GatheredBudget } from '../../budget-runtime/gather-budget';
import { readMarginSources } from '../../budget-runtime/margin-sources';
import { CapsuleError } from '../../errors/capsule-error';
import { createGitRunner } from '../../git/git-runner';
import { readCachedConfig } from '../../local-state/cached-config';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type CliContext, type Verb } from '../context';
import { renderBudgetReport } from '../budget-report';

const USAGE = `usage: git capsule budget [--json] [--transcript FILE | --session ID]
       git capsule budget cap [<tokens> | off] [--session ID | --all-sessions] [--json]

Prints the context fill of a Claude Code session (its newest transcript by default), the
native compaction point, the hard point and the warning point, and where each came from.

  --transcript FILE  read this transcript (JSONL)
  --session ID       read the transcript of this session id under ~/.claude/projects/
  --json             print one JSON object

'budget cap 100k' sets a runtime ceiling on the window (whole tokens, decimal k/m
suffixes); 'budget cap off' removes it; 'budget cap' shows it. The cap lives in the runtime
dir only: it never changes Claude's settings or environment. It belongs to the session that
set it (--session, else CLAUDE_CODE_SESSION_ID, which Claude's Bash tool sets) and ends with
that session; --all-sessions, or no session known, sets it for every session.
`;

/** `git capsule budget`: the fill, the points and their sources; `budget cap` sets the runtime ceiling. */
export const verb: Verb = {
  name: 'budget',
  summary: 'Show the context fill and the warning, hard and native points; set a runtime cap',
  usage: USAGE,
  run: async (args, ctx) => (args[0] === 'cap' ? runCap(args.slice(1), ctx) : runReport(args, ctx)),
};

async function runReport(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseVerbArgs('budget', args, {
    json: { type: 'boolean' },
    transcript: { type: 'string' },
    session: { type: 'string' },
  });
  if (positionals.length > 0) throw usageError('budget', `unexpected argument '${positionals[0]}'`);
  if (values.transcript !== undefined && values.session !== undefined) throw usageError('budget', '--transcript and --session exclude each other');
  const gathered = await gatherForCli(ctx, { transcript: values.transcript ?? null, session: values.session ?? null });
  ctx.stdout(values.json ? `${JSON.stringify(budgetJson(gathered))}\n` : renderBudgetReport(gathered));
  return EXIT.OK;
}

/** Locates the transcript and runtime dir the way the CLI does, then gathers the budget. */
export async function gatherForCli(
  ctx: CliContext,
  opts: { transcript: string | null; session: string | null; modelHint?: string | null; reportedWindow?: unknown; fill?: ContextFill | null },
): Promise<GatheredBudget> {
  const { projectDir, runtimeDir } = locateBudget(ctx.cwd, ctx.env);
  const config = await readCliGitConfig(ctx, projectDir);
  // Run from Claude's Bash tool, the CLI knows its own session from CLAUDE_CODE_SESSION_ID.
  const session = opts.session ?? (opts.transcript === null ? ctx.env.CLAUDE_CODE_SESSION_ID || null : null);
  const transcriptPath = opts.transcript !== null ? resolve(ctx.cwd, opts.transcript) : findTranscriptPath({ env: ctx.env, projectDirs: [projectDir, ctx.cwd], sessionId: session });
  const sessionId = session ?? (transcriptPath !== null ? sessionIdOfTranscript(transcriptPath) : null);
  const gathered = gatherBudget({
    cwd: ctx.cwd,
    env: ctx.env,
    projectDir,
    runtimeDir,
    transcriptPath,
    sessionId,
    modelHint: opts.modelHint ?? null,
    reportedWindow: opts.reportedWindow,
    fill: opts.fill ?? null,
    gitConfig: config.values,
  });
  return { ...gathered, notes: [...new Set([...gathered.notes, ...config.notes])] };
}

/** `git config capsule.*` through the one cached reader; a failed read is a note, and the defaults apply. */
async function readCliGitConfig(ctx: CliContext, projectDir: string): Promise<{ values: Record<string, string>; notes: string[] }> {
  try {
    return { values: (await readCachedConfig(createGitRunner({ cwd: projectDir, env: ctx.env }))).values, notes: [] };
  } catch (err) {
    return { values: {}, notes: [`could not read git config capsule.* (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`] };
  }
}

/** The JSON form of a gathered budget (stable keys; `--json`). */
export function budgetJson(g: GatheredBudget): Record<string, unknown> {
  const r = g.resolution;
  return {
    fill: g.fill,
    fillProblem: g.fillProblem,
    transcript: g.transcriptPath,
    model: g.model,
    status: r.status,
    ...(r.status === 'ok' ? { points: r.points } : {}),
    ...(r.status === 'disabled' || r.status === 'suppressed' ? { switch: r.switch } : {}),
    ...(r.status === 'unresolvable' ? { reason: r.reason } : {}),
    cap: g.cap,
    window: g.windowId,
    warned: g.state !== null && g.windowId !== null ? g.state.warnedWindow === g.windowId : null,
    blocked: g.state !== null && g.windowId !== null ? g.state.blockedWindow === g.windowId : null,
    settingsFiles: g.settings.files,
    config: g.margins.configPath,
    notes: g.notes,
  };
}

async function runCap(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseVerbArgs('budget', args, { json: { type: 'boolean' }, session: { type: 'string' }, 'all-sessions': { type: 'boolean' } });
  if (values.session !== undefined && values['all-sessions']) throw usageError('budget', '--session and --all-sessions exclude each other');
  const owner = values['all-sessions'] ? null : values.session || ctx.env.CLAUDE_CODE_SESSION_ID || null;
  if (positionals.length > 1) throw usageError('budget', `'budget cap' takes one value, got ${positionals.length}`);
  const { projectDir, runtimeDir } = locateBudget(ctx.cwd, ctx.env);
  if (runtimeDir === null) {
    throw new CapsuleError('NOT_A_REPO', `git capsule budget cap: ${ctx.cwd} is not inside a git repository, and CAPSULE_STATE_DIR is not set; the cap lives in the repository's runtime dir. Run it inside the project.`, { cwd: ctx.cwd });
  }
  const value = positionals[0];
  if (value === undefined) {
    const cap = readCap(runtimeDir, owner);
    ctx.stdout(values.json ? `${JSON.stringify({ cap })}\n` : `cap: ${cap === null ? 'off' : `${cap} tokens (${formatTokens(cap)})`}\n`);
    return EXIT.OK;
  }
  if (value === 'off') {
    writeCap(runtimeDir, null, ctx.now());
    ctx.stdout(values.json ? `${JSON.stringify({ cap: null })}\n` : 'cap: off\n');
    return EXIT.OK;
  }
  const parsed = parseTokenCount(value);
  if (!parsed.ok) throw usageError('budget', `cap '${value}' is not a whole token count (expected e.g. 150000, 100k, 1.5m, or off)`);
  const { margins } = resolveMargins(readMarginSources({ projectDir, gitConfig: (await readCliGitConfig(ctx, projectDir)).values }).sources);
  // The cap must leave a positive warning point for any model: the largest output reserve, the summary buffer and both margins.
  const minimum = OUTPUT_RESERVE_CAP + SUMMARY_BUFFER + margins.resetMarginTokens + margins.warningRunwayTokens + 1;
  if (parsed.tokens < minimum) {
    throw new CapsuleError(
      'CAP_TOO_SMALL',
      `git capsule budget cap: ${parsed.tokens} tokens leaves no room for the reserves; expected at least ${minimum} (output reserve ${OUTPUT_RESERVE_CAP} + summary buffer ${SUMMARY_BUFFER} + resetMarginTokens ${margins.resetMarginTokens} + warningRunwayTokens ${margins.warningRunwayTokens} + 1).`,
      { cap: parsed.tokens, minimum },
    );
  }
  writeCap(runtimeDir, parsed.tokens, ctx.now(), owner);
  ctx.stdout(values.json ? `${JSON.stringify({ cap: parsed.tokens, session: owner })}\n` : `cap: ${parsed.tokens} tokens (${formatTokens(parsed.tokens)}) ${owner === null ? 'for every session' : `for session ${owner}, until it ends`}\n`);
  return EXIT.OK;
}
