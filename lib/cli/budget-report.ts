import type { GatheredBudget } from '../budget-runtime/gather-budget';
import type { NativePoint } from '../budget/native-point';
import { SUMMARY_BUFFER } from '../budget/native-point';

const WINDOW_FROM: Record<NativePoint['windowSource'], string> = {
  model: 'the model window',
  host: 'the window the host reported',
  env: 'CLAUDE_CODE_AUTO_COMPACT_WINDOW',
  settings: 'autoCompactWindow in settings',
  'settings-model': 'modelSettings.<model>.autoCompactWindow',
  cap: "the runtime cap ('git capsule budget cap')",
};

const MODEL_FROM: Record<NativePoint['modelWindowSource'], string> = {
  host: 'reported by the host',
  catalog: "Claude Code's model catalog",
  'tag-1m': 'the [1m] tag',
  default: 'unknown model: the classic 200K default',
};

/** The human report of `git capsule budget`: one labelled line per number, with its source. */
export function renderBudgetReport(g: GatheredBudget): string {
  const lines: string[] = [];
  const row = (label: string, value: string) => lines.push(`${label.padEnd(14)} ${value}`);
  const n = (v: number) => v.toLocaleString('en-US');
  const r = g.resolution;
  const fill = g.fill;
  const pct = fill !== null && r.status === 'ok' ? ` (${Math.round((fill.tokens / r.points.native.window) * 100)}% of the window)` : '';
  row('context fill', fill === null ? `unknown: ${g.fillProblem ?? 'no usage found'}` : `${n(fill.tokens)} tokens${pct}, from the last ${fill.source === 'usage' ? 'main-chain assistant usage' : 'compaction (postTokens)'}`);
  row('transcript', g.transcriptPath ?? 'none');
  row('model', g.model ?? 'unknown');
  if (r.status === 'disabled') row('budget', 'off: CAPSULE_DISABLED is set; every hook passes through');
  else if (r.status === 'suppressed') row('budget', 'off: DISABLE_COMPACT is set; no warning and no block');
  else if (r.status === 'unresolvable') row('budget', `unresolvable: ${r.reason}; warnings are skipped`);
  else {
    const p = r.points;
    const nat = p.native;
    row('window', `${n(nat.window)} from ${WINDOW_FROM[nat.windowSource]} (model window ${n(nat.modelWindow)}, ${MODEL_FROM[nat.modelWindowSource]})`);
    const how = !nat.autoCompact
      ? `window − output reserve ${n(nat.outputReserve)} (automatic compaction is off)`
      : nat.pointSource === 'threshold'
        ? 'the threshold the host reported'
        : `window − output reserve ${n(nat.outputReserve)} − summary buffer ${n(SUMMARY_BUFFER)}`;
    row('native point', `${n(nat.tokens)}: ${how}${nat.pctOverride !== null ? `, lowered by CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${nat.pctOverride}` : ''}`);
    row('hard point', `${n(p.hard)}: native − resetMarginTokens ${n(p.margins.resetMarginTokens)} (${p.margins.from.resetMarginTokens})${p.blockEnabled ? '' : '; no automatic block'}`);
    row('warning', `${n(p.warning)}: hard − warningRunwayTokens ${n(p.margins.warningRunwayTokens)} (${p.margins.from.warningRunwayTokens})`);
  }
  row('cap', g.cap === null ? 'off' : `${n(g.cap)} tokens`);
  if (g.state !== null && g.windowId !== null) {
    row('this window', `${g.windowId}: warned ${g.state.warnedWindow === g.windowId ? 'yes' : 'no'}, blocked ${g.state.blockedWindow === g.windowId ? 'yes' : 'no'}`);
  }
  for (const note of g.notes) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}
