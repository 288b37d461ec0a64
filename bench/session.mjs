// Whole-session row: the same 10-step scripted session of the REAL Claude Code client (offline,
// against the fake API of the repository's harness, test/harness/claude) with and without the plugin, interleaved (ABBA order
// per repetition), and the ratio of the medians of the session times (the sum of the steps'
// durations, so the harness's own set-up is not counted on either side).
//
//   node bench/session.mjs [--reps 3] [--json]
//
// Uses test/harness/claude (CAPSULE_HARNESS_DIR overrides) and the pinned client
// (CLAUDE_BIN, else installed into .e2e-client/ as the e2e tests do).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './lib/bench-args.mjs';
import { loadTs } from './lib/load-ts.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = benchArgs(import.meta.url, { options: { reps: { type: 'string', default: '3' }, json: { type: 'boolean' } } });
const REPS = Number(values.reps);
/** Ten steps: edits, a failing and a passing test, a read, /compact, /clear, and work after each. */
export const SESSION_PROMPTS = ['S1-WRITE write the widget', 'S2-TEST run the widget test', 'S3-FIX fix the widget', 'S4-READ read the widget', 'S5-TEST run the widget test again', '/compact', 'S7-AFTER-COMPACT what now?', '/clear', '@continue:S9-AFTER-CLEAR what now?', 'S10-NOTES write the notes'];

const { ensureClaudeClient, findHarness } = await loadTs('test/e2e/claude-client.ts');
const harness = findHarness();
if (!harness) {
  console.error(`bench/session.mjs: CAPSULE_HARNESS_DIR=${process.env.CAPSULE_HARNESS_DIR} holds no run.sh (unset it to use test/harness/claude)`);
  process.exit(1);
}
const claude = ensureClaudeClient();
const env = { ...process.env, CLAUDE_BIN: claude };
delete env.NODE_EXTRA_CA_CERTS;

/** One session; returns the sum of its step durations (ms) and the run's output folder. */
function session(withPlugin) {
  const out = mkdtempSync(join(tmpdir(), `capsule-bench-session-${withPlugin ? 'plugin' : 'bare'}-`));
  const args = ['-o', out, ...(withPlugin ? ['-P', ROOT] : []), '-S', join(ROOT, 'bench', 'session', 'script.json'), '-t', '90', ...SESSION_PROMPTS.flatMap((p) => ['-p', p])];
  const r = spawnSync(join(harness, 'run.sh'), args, { env, encoding: 'utf8', timeout: 900_000 });
  const summary = existsSync(join(out, 'summary.txt')) ? readFileSync(join(out, 'summary.txt'), 'utf8') : '';
  const steps = [...summary.matchAll(/^step \d+: rc=(\d+) duration_ms=(\d+)$/gm)];
  if (r.status !== 0 || steps.length !== SESSION_PROMPTS.length || steps.some((m) => m[1] !== '0')) {
    throw new Error(`session (${withPlugin ? 'plugin' : 'bare'}) failed: exit ${r.status}\n${summary}\n${r.stderr.slice(-2000)}\nlogs in ${out}`);
  }
  if (withPlugin) checkPluginWorked(out);
  const ms = steps.reduce((sum, m) => sum + Number(m[2]), 0);
  rmSync(out, { recursive: true, force: true });
  return { ms, steps: steps.map((m) => Number(m[2])) };
}

/** The row only counts if the plugin did its work: the resume reached the request after /clear, and no hook failed. */
function checkPluginWorked(out) {
  const requests = readFileSync(join(out, 'requests.jsonl'), 'utf8');
  const after = requests.split('\n').filter((l) => l.includes('S9-AFTER-CLEAR'));
  if (!after.some((l) => l.includes('GIT-CAPSULE RESUME'))) throw new Error(`no resume text reached the request after /clear; logs in ${out}`);
  const log = join(out, 'repo', '.git', 'capsule', 'errors.log');
  if (existsSync(log) && readFileSync(log, 'utf8').trim() !== '') throw new Error(`hook errors: ${readFileSync(log, 'utf8').slice(0, 1000)}; logs in ${out}`);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const bare = [];
const plugin = [];
const loads = [loadavg()[0]];
session(false); // warm-up: the client binary and the page cache
for (let rep = 0; rep < REPS; rep += 1) {
  const order = rep % 2 === 0 ? [false, true] : [true, false];
  for (const withPlugin of order) (withPlugin ? plugin : bare).push(session(withPlugin).ms);
  loads.push(loadavg()[0]);
  process.stderr.write(`rep ${rep + 1}: bare ${bare.at(-1)} ms, plugin ${plugin.at(-1)} ms (${(plugin.at(-1) / bare.at(-1)).toFixed(2)}×), load ${loads.at(-1).toFixed(1)}\n`);
}
const row = { reps: REPS, bareMs: median(bare), pluginMs: median(plugin), bare, plugin, loads };
row.ratio = row.pluginMs / row.bareMs;
if (values.json) console.log(JSON.stringify(row, null, 2));
else {
  console.log(`Whole session, measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${cpus().length} cores, ${REPS} repetitions, interleaved; 1-minute load average ${loads.map((l) => l.toFixed(1)).join(' → ')}): the real client ${spawnSync(claude, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ${SESSION_PROMPTS.length} steps, sum of step durations.`);
  console.log('');
  console.log('| session | median | each repetition | ratio | target | met |');
  console.log('| --- | ---: | --- | ---: | ---: | --- |');
  console.log(`| without the plugin | ${(row.bareMs / 1000).toFixed(2)} s | ${bare.map((m) => (m / 1000).toFixed(2)).join(', ')} s | | | |`);
  console.log(`| with the plugin | ${(row.pluginMs / 1000).toFixed(2)} s | ${plugin.map((m) => (m / 1000).toFixed(2)).join(', ')} s | ${row.ratio.toFixed(2)}× | ≤ 1.15× | ${row.ratio <= 1.15 ? 'yes' : 'no'} |`);
}
