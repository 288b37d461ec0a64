import type { ContextFill } from '../../budget/context-fill';
import { formatTokens } from '../../budget/token-count';
import { writeBudgetState } from '../../local-state/budget-state';
import type { GatheredBudget } from '../../budget-runtime/gather-budget';
import { parseVerbArgs, usageError } from '../args';
import { EXIT, type CliContext, type Verb } from '../context';
import { formatAge, withStore } from '../with-store';
import { gatherForCli } from './budget';

const USAGE = `usage: git capsule statusline [--json]

A Claude Code status-line command: reads the JSON Claude Code sends on stdin and prints one
line with the context fill, the warning, hard and native points, the budget state of the
window and the newest active capsule. Wire it in .claude/settings.json:

  { "statusLine": { "type": "command", "command": "git capsule statusline" } }

It always exits 0 and prints a line, so a bad input never blanks the status bar.
`;

type Rec = Record<string, unknown>;

/** `git capsule statusline`: one status line from Claude Code's status-line JSON on stdin. */
export const verb: Verb = {
  name: 'statusline',
  summary: 'Print a Claude Code status line: context fill, budget points and state',
  usage: USAGE,
  run: async (args, ctx) => {
    const { values, positionals } = parseVerbArgs('statusline', args, { json: { type: 'boolean' } });
    if (positionals.length > 0) throw usageError('statusline', `unexpected argument '${positionals[0]}'`);
    let input: Rec = {};
    try {
      const parsed: unknown = JSON.parse(await ctx.readStdin());
      if (isRecord(parsed)) input = parsed;
    } catch {
      // A status line must still print: with no usable input it shows what the repo alone tells.
    }
    const line = await statusLine(input, ctx, Boolean(values.json));
    ctx.stdout(`${line}\n`);
    return EXIT.OK;
  },
};

async function statusLine(input: Rec, ctx: CliContext, json: boolean): Promise<string> {
  const model = isRecord(input.model) ? str(input.model.id) : null;
  const cw = isRecord(input.context_window) ? input.context_window : {};
  const fill = reportedFill(cw.current_usage, model);
  const workspace = isRecord(input.workspace) ? input.workspace : {};
  const cwd = str(workspace.project_dir) ?? str(workspace.current_dir) ?? str(input.cwd) ?? ctx.cwd;
  const g = await gatherForCli(
    { ...ctx, cwd },
    { transcript: str(input.transcript_path), session: safeSession(input.session_id), modelHint: model, reportedWindow: cw.context_window_size, fill },
  );
  rememberHostWindow(g, model, cw.context_window_size);
  const r = g.resolution;
  const state = g.state !== null && g.windowId !== null ? (g.state.blockedWindow === g.windowId ? 'capsule asked' : g.state.warnedWindow === g.windowId ? 'warned' : 'ok') : 'no state';
  const capsule = await newestActiveCapsule({ ...ctx, cwd });
  if (json) {
    const points = r.status === 'ok' ? { warning: r.points.warning, hard: r.points.hard, native: r.points.native.tokens, window: r.points.native.window } : {};
    return JSON.stringify({ fill: g.fill?.tokens ?? null, status: r.status, ...points, state, capsule });
  }
  const capsulePart = capsule === null ? 'no active capsule' : `capsule ${capsule.id.slice(0, 8)} ${capsule.age}`;
  if (r.status === 'disabled') return 'capsule: off';
  const ctxPart = `ctx ${g.fill ? formatTokens(g.fill.tokens) : '?'}`;
  if (r.status === 'suppressed') return `${ctxPart} · budget off (DISABLE_COMPACT) · ${capsulePart}`;
  if (r.status === 'unresolvable' || g.fill === null) return `${ctxPart} · budget ${state} · ${capsulePart}`;
  const p = r.points;
  const pct = Math.round((g.fill.tokens / p.native.window) * 100);
  const zone = g.fill.tokens >= p.hard ? ' HARD' : g.fill.tokens >= p.warning ? ' WARN' : '';
  return `${ctxPart}/${formatTokens(p.native.window)} ${pct}%${zone} · warn ${formatTokens(p.warning)} · hard ${formatTokens(p.hard)} · native ${formatTokens(p.native.tokens)} · budget ${state} · ${capsulePart}`;
}

/** The newest active capsule's id and age, or null (no memory branch, no capsule, or any store error). */
async function newestActiveCapsule(ctx: CliContext): Promise<{ id: string; age: string } | null> {
  try {
    return await withStore(ctx, async (store) => {
      const [newest] = await store.listIndex({ status: ['active'], limit: 1 });
      return newest ? { id: newest.id, age: formatAge(newest.createdAt, ctx.now()) } : null;
    });
  } catch {
    // A status line never fails: outside a repository or without a memory branch it just says so.
    return null;
  }
}

/**
 * Keeps the window the host reported for this model in the session's runtime state, so the
 * hooks (whose payloads carry no window) use it too. Best effort: a status line never fails.
 */
function rememberHostWindow(g: GatheredBudget, model: string | null, size: unknown): void {
  if (g.state === null || g.sessionId === null || g.runtimeDir === null || model === null) return;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) return;
  if (g.state.hostWindow?.model === model && g.state.hostWindow.tokens === size) return;
  try {
    writeBudgetState(g.runtimeDir, g.sessionId, { ...g.state, hostWindow: { model, tokens: size } });
  } catch {
    // The state dir may be read-only; the line still prints, the hooks fall back to the catalog.
  }
}

/** The fill from the status line's `current_usage`, summed like the transcript's usage; null when unusable. */
function reportedFill(usage: unknown, model: string | null): ContextFill | null {
  if (!isRecord(usage)) return null;
  const parts = [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens];
  if (!isCount(parts[0])) return null;
  const tokens = parts.reduce<number>((sum, v) => sum + (isCount(v) ? v : 0), 0);
  return { tokens, model, source: 'usage', uuid: null };
}

function safeSession(value: unknown): string | null {
  const s = str(value);
  return s !== null && /^[A-Za-z0-9_-]{1,128}$/.test(s) ? s : null;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
