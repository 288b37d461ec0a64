// The continuity benchmark: runs each scenario through the real Claude Code client (and, with
// --host codex or both, the real Codex CLI) and its harness's fake API, resets (/clear,
// /compact), and scores the first request after the reset; with both hosts the reports stand
// one after the other, each with its totals.
// Run: npm run bench:continuity -- [--set tuned|held-out|held-out-2|all] [--host claude|codex|both] [--only a,b] [--reset clear|compact] [--jobs N] [--plugin DIR] [--json FILE] [--keep] [--step-timeout S]
// A step is one `claude -p` of the harness; under load a 30-call turn needs minutes, so the
// default step timeout is 240 s (a step that times out fails the run, and its score says so).
// The scenarios come in sets (scenarios/tuned/, scenarios/held-out/, scenarios/held-out-2/): each
// is reported on its own (recall, violations, max context), then all together.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureClaudeClient, findHarness, REPO_ROOT } from '../../test/e2e/claude-client';
import { ensureCodexClient, findCodexHarness } from '../../test/e2e/codex-client';
import { runScenarioOnCodex } from './codex/run-scenario';
import type { ClaudeProbe as HostProbe } from './claude/run-scenario';
import { runScenarioOnClaude } from './claude/run-scenario';
import { renderReport, totals, totalsLine } from './report';
import type { Reset, Scenario } from './scenario-types';
import { SETS } from './scenarios/index';
import { scoreProbe, type ScenarioScore } from './score';

const USAGE = `npm run bench:continuity -- [--set tuned|held-out|held-out-2|all] [--host claude|codex|both] [--only a,b] [--reset clear|compact] [--jobs N] [--plugin DIR] [--json FILE] [--keep] [--step-timeout S]
Each probe's line names its hook errors by code (the first word of each errors.log line).
`;

/** `hook errors: 2 (CLEARED_FOLD_FAILED ×2)`: what a probe's errors.log held, by code. */
function hookErrorsNote(log: string): string {
  const lines = log.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return '';
  const codes = new Map<string, number>();
  for (const line of lines) {
    const code = line.trim().split(/\s/)[0]!;
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  return `, hook errors: ${lines.length} (${[...codes].map(([c, n]) => (n > 1 ? `${c} ×${n}` : c)).join(', ')})`;
}

async function main(): Promise<number> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        only: { type: 'string' }, reset: { type: 'string' }, jobs: { type: 'string' }, plugin: { type: 'string' }, json: { type: 'string' }, keep: { type: 'boolean' },
        'step-timeout': { type: 'string' }, host: { type: 'string' }, set: { type: 'string' },
      },
    }));
  } catch (err) {
    process.stderr.write(`bench:continuity: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  const hosts = values.host === 'both' ? ['claude', 'codex'] : [values.host ?? 'claude'];
  if (!hosts.every((h) => h === 'claude' || h === 'codex')) {
    process.stderr.write(`bench:continuity: --host ${values.host}: expected claude, codex or both\n`);
    return 2;
  }
  const set = values.set ?? 'all';
  if (set !== 'all' && !(set in SETS)) {
    process.stderr.write(`bench:continuity: --set ${set}: expected tuned, held-out, held-out-2 or all\n`);
    return 2;
  }
  const halves = (set === 'all' ? Object.keys(SETS) : [set]) as Array<keyof typeof SETS>;
  const drivers: Array<{ label: string; run: (s: Scenario, r: Reset) => Promise<HostProbe> }> = [];
  const stepTimeoutSec = Number(values['step-timeout'] ?? 240);
  const plugin = resolve(values.plugin ?? REPO_ROOT);
  if (hosts.includes('claude')) {
    const harness = findHarness();
    if (harness === null) {
      process.stderr.write(`bench:continuity: CAPSULE_HARNESS_DIR=${process.env.CAPSULE_HARNESS_DIR} holds no run.sh (unset it to use test/harness/claude)\n`);
      return 1;
    }
    const claudeBin = ensureClaudeClient();
    drivers.push({ label: 'Claude Code', run: (s, r) => runScenarioOnClaude(s, r, { harness, claudeBin, plugin, keep: values.keep, stepTimeoutSec }) });
  }
  if (hosts.includes('codex')) {
    const harness = findCodexHarness();
    if (harness === null) {
      process.stderr.write(`bench:continuity: CAPSULE_CODEX_HARNESS_DIR=${process.env.CAPSULE_CODEX_HARNESS_DIR} holds no run.sh (unset it to use test/harness/codex)\n`);
      return 1;
    }
    const codexBin = ensureCodexClient();
    drivers.push({ label: 'Codex CLI', run: (s, r) => runScenarioOnCodex(s, r, { harness, codexBin, plugin, keep: values.keep, stepTimeoutSec }) });
  }
  const only = values.only?.split(',');
  const resets = (values.reset ? [values.reset] : ['clear', 'compact']) as Reset[];
  const jobs: Array<[Scenario, Reset]> = [];
  const halfOf = new Map<string, string>();
  for (const half of halves) for (const s of SETS[half]) halfOf.set(s.name, half);
  const chosen = halves.flatMap((half) => SETS[half]).filter((x) => !only || only.includes(x.name));
  if (only) for (const name of only) if (!chosen.some((s) => s.name === name)) process.stderr.write(`bench:continuity: --only ${name}: no such scenario in --set ${set}\n`);
  for (const s of chosen) for (const r of resets) if (s.probe.resets.includes(r)) jobs.push([s, r]);
  const all: Array<ScenarioScore & { host: string }> = [];
  const reports: string[] = [];
  for (const driver of drivers) {
    process.stderr.write(`bench:continuity: ${jobs.length} runs of ${plugin} on ${driver.label} (load ${loadAverage()})\n`);
    const scores: ScenarioScore[] = new Array(jobs.length);
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const i = next++;
        const [scenario, reset] = jobs[i]!;
        const t0 = Date.now();
        const probe = await driver.run(scenario, reset);
        scores[i] = scoreProbe(scenario, reset, probe);
        const hooks = hookErrorsNote(probe.hookErrors);
        process.stderr.write(`  ${scenario.name} /${reset}: ${scores[i]!.hits.length}/${scores[i]!.facts} facts, ${scores[i]!.violations.length} violations (${((Date.now() - t0) / 1000).toFixed(0)} s${hooks}${probe.out ? `, kept in ${probe.out}` : ''})\n`);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Number(values.jobs ?? 1)) }, worker));
    const parts: string[] = [];
    for (const half of halves) {
      const some = scores.filter((x) => halfOf.get(x.scenario) === half);
      if (some.length > 0) parts.push(`-- ${half} (${new Set(some.map((x) => x.scenario)).size} scenarios)\n${renderReport(some)}`);
    }
    if (parts.length > 1) parts.push(`total:${' '.repeat(8)}${totalsLine(totals(scores))}`);
    reports.push(`${drivers.length > 1 ? `== ${driver.label}\n` : ''}${parts.join('\n\n')}`);
    all.push(...scores.map((s) => ({ ...s, host: driver.label })));
  }
  process.stdout.write(`${reports.join('\n\n')}\n(load ${loadAverage()})\n`);
  if (values.json) writeFileSync(values.json, JSON.stringify(all, null, 2));
  return 0;
}

function loadAverage(): string {
  return require('node:os').loadavg()[0].toFixed(2);
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`bench:continuity: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
