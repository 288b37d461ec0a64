// The continuity benchmark: runs each scenario through the real Claude Code client and the
// harness's fake API, resets (/clear, /compact), and scores the first request after the reset.
// Run: npm run bench:continuity -- [--only a,b] [--reset clear|compact] [--jobs N] [--plugin DIR] [--json FILE] [--keep] [--step-timeout S]
// A step is one `claude -p` of the harness; under load a 30-call turn needs minutes, so the
// default step timeout is 240 s (a step that times out fails the run, and its score says so).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureClaudeClient, findHarness, REPO_ROOT } from '../../test/e2e/claude-client';
import { runScenarioOnClaude } from './claude/run-scenario';
import { renderReport } from './report';
import type { Reset, Scenario } from './scenario-types';
import { SCENARIOS } from './scenarios/index';
import { scoreProbe, type ScenarioScore } from './score';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' }, reset: { type: 'string' }, jobs: { type: 'string' }, plugin: { type: 'string' }, json: { type: 'string' }, keep: { type: 'boolean' },
      'step-timeout': { type: 'string' },
    },
  });
  const harness = findHarness();
  if (harness === null) {
    process.stderr.write('bench:continuity: no claude harness found (set CAPSULE_HARNESS_DIR or put shared/claude-harness beside the repository)\n');
    return 1;
  }
  const claudeBin = ensureClaudeClient();
  const plugin = resolve(values.plugin ?? REPO_ROOT);
  const only = values.only?.split(',');
  const resets = (values.reset ? [values.reset] : ['clear', 'compact']) as Reset[];
  const jobs: Array<[Scenario, Reset]> = [];
  for (const s of SCENARIOS.filter((x) => !only || only.includes(x.name))) for (const r of resets) if (s.probe.resets.includes(r)) jobs.push([s, r]);
  process.stderr.write(`bench:continuity: ${jobs.length} runs of ${plugin} (load ${loadAverage()})\n`);
  const scores: ScenarioScore[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const [scenario, reset] = jobs[i]!;
      const t0 = Date.now();
      const probe = await runScenarioOnClaude(scenario, reset, { harness, claudeBin, plugin, keep: values.keep, stepTimeoutSec: Number(values['step-timeout'] ?? 240) });
      scores[i] = scoreProbe(scenario, reset, probe);
      const hooks = probe.hookErrors.trim() === '' ? '' : `, hook errors: ${probe.hookErrors.trim().split('\n').length}`;
      process.stderr.write(`  ${scenario.name} /${reset}: ${scores[i]!.hits.length}/${scores[i]!.facts} facts, ${scores[i]!.violations.length} violations (${((Date.now() - t0) / 1000).toFixed(0)} s${hooks}${probe.out ? `, kept in ${probe.out}` : ''})\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Number(values.jobs ?? 1)) }, worker));
  process.stdout.write(`${renderReport(scores)}\n(load ${loadAverage()})\n`);
  if (values.json) writeFileSync(values.json, JSON.stringify(scores, null, 2));
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
