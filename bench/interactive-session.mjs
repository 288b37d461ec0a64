// The session shape an interactive user has: ONE long-lived client process of the REAL Claude
// Code (offline, against the harness's fake API; stream-json input, as the client reads a live
// session), ten turns that each make a tool call, one /clear in the middle, with and without the
// plugin, interleaved (ABBA per repetition). The session time runs from starting the client to
// the last turn's result (what the user waits for; the client's exit after it is not counted).
// A second table reads the client's own debug log (--debug-file): per turn, how long the client
// waited on our hooks (from each hook's start line to its completion or its move to the
// background) in the plugin's sessions.
//
//   node bench/interactive-session.mjs [--reps 5] [--json] [--keep] [--delay-ms N]
//
// --delay-ms N: the fake API answers each model request N ms late, a model's latency (default 0:
// at once, the row docs/performance.md reports). With a delay it is a different row: the header says so.
//
// Uses test/harness/claude (CAPSULE_HARNESS_DIR overrides) and the pinned client.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './lib/bench-args.mjs';
import { loadTs } from './lib/load-ts.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = benchArgs(import.meta.url, { options: { reps: { type: 'string', default: '5' }, json: { type: 'boolean' }, keep: { type: 'boolean' }, 'delay-ms': { type: 'string', default: '0' } } });
const REPS = Number(values.reps);
if (values.keep) process.env.CAPSULE_E2E_KEEP = '1';
const DELAY_MS = Number(values['delay-ms']);
if (!Number.isInteger(DELAY_MS) || DELAY_MS < 0) throw new Error(`--delay-ms wants a whole number of ms, not ${values['delay-ms']}`);
/** Ten turns, each with a tool call (Write, Bash failing and passing, Read), and /clear after the fifth. */
export const TURNS = ['S1-WRITE write the widget', 'S2-TEST run the widget test', 'S3-FIX fix the widget', 'S4-READ read the widget', 'S5-TEST run the widget test again', '/clear', 'S3-FIX fix it once more', 'S4-READ read it again', 'S2-TEST run the test once more', 'S5-TEST and again', 'S10-NOTES write the notes'];

// test/e2e/claude-client.ts, bundled with it, finds the harness and the client from its own folder.
const { StreamHarness } = await loadTs('test/e2e/support/stream-session.ts', 'test/e2e');
const script = JSON.parse(readFileSync(join(ROOT, 'bench', 'session', 'script.json'), 'utf8'));
// Without the plugin the client gets an empty plugin folder, so both sides run the same flags.
const EMPTY_PLUGIN = join(tmpdir(), 'capsule-bench-empty-plugin');
mkdirSync(join(EMPTY_PLUGIN, '.claude-plugin'), { recursive: true });
writeFileSync(join(EMPTY_PLUGIN, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'empty', version: '0.0.0', description: 'no hooks' }));

/** One session in a fresh repository; returns its time, per-turn times and the hook waits its debug log shows. */
async function session(withPlugin) {
  const h = await StreamHarness.start({ name: `bench-interactive-${withPlugin ? 'plugin' : 'bare'}`, script, turnTimeoutMs: 120_000, responseDelayMs: DELAY_MS });
  try {
    const t0 = performance.now();
    const s = h.session({ name: 'user', pluginDir: withPlugin ? ROOT : EMPTY_PLUGIN });
    const turns = [];
    let last = t0;
    for (const text of TURNS) {
      const r = await s.send(text);
      if (r.result.is_error) throw new Error(`turn ${JSON.stringify(text)} ended in error: ${JSON.stringify(r.result).slice(0, 300)}`);
      const now = performance.now();
      turns.push(now - last);
      last = now;
    }
    const ms = last - t0;
    await s.close();
    const debug = readFileSync(join(h.out, 'user.debug.log'), 'utf8');
    if (withPlugin) checkPluginWorked(h);
    return { ms, turns, hookWaits: hookWaits(debug) };
  } finally {
    // Always closed: a fake API left running kept the bench from exiting. --keep keeps the logs (close() says where).
    await h.close();
  }
}

/** The row counts only if the plugin did its work: the resume reached the request after /clear, and no hook failed. */
function checkPluginWorked(h) {
  const after = h.firstRequestWith('S3-FIX fix it once more');
  if (!after?.text.includes('GIT-CAPSULE RESUME')) throw new Error(`no resume text reached the first request after /clear; logs in ${h.out}`);
  let log = '';
  try {
    log = readFileSync(join(h.repo, '.git', 'capsule', 'errors.log'), 'utf8');
  } catch {
    // no errors.log: no hook failed
  }
  if (log.trim() !== '') throw new Error(`hook errors: ${log.slice(0, 1000)}; logs in ${h.out}`);
}

/**
 * Every run of our hooks the client's debug log reports, with how long the client waited on it:
 * `Hooks: <Event>[:<source>] [<command>] (plugin …) finished with status <n> (<ms>ms)`, or
 * `… moved to the background (<ms>ms)` for a hook it stopped waiting for. Only the plugin's
 * own bundles (dist/hooks/) count.
 */
export function hookWaits(debug) {
  const waits = [];
  for (const m of debug.matchAll(/Hooks: (\w+)(?::(\w+))? \[[^\]\n]*dist\/hooks\/[a-z-]+\.js[^\]\n]*\][^\n]*? (finished with status -?\d+|moved to the background) \((\d+)ms\)/g)) {
    waits.push({ hook: m[2] ? `${m[1]}(${m[2]})` : m[1], ms: Number(m[4]), background: m[3].startsWith('moved') });
  }
  return waits;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const bare = [];
const plugin = [];
const loads = [loadavg()[0]];
await session(false); // warm-up: the client binary and the page cache
for (let rep = 0; rep < REPS; rep += 1) {
  for (const withPlugin of rep % 2 === 0 ? [false, true] : [true, false]) (withPlugin ? plugin : bare).push(await session(withPlugin));
  loads.push(loadavg()[0]);
  process.stderr.write(`rep ${rep + 1}: bare ${bare.at(-1).ms.toFixed(0)} ms, plugin ${plugin.at(-1).ms.toFixed(0)} ms (${(plugin.at(-1).ms / bare.at(-1).ms).toFixed(2)}×), load ${loads.at(-1).toFixed(1)}\n`);
}
const row = { reps: REPS, bareMs: median(bare.map((s) => s.ms)), pluginMs: median(plugin.map((s) => s.ms)), loads };
row.ratio = row.pluginMs / row.bareMs;
// Per hook: the median wait per run, and how many runs went to the background.
const byHook = {};
for (const s of plugin) for (const w of s.hookWaits) (byHook[w.hook] ??= []).push(w);
// What a turn waits on: UserPromptSubmit and the part of Stop the client waited for before backgrounding it.
const turnHooks = (w) => w.hook === 'UserPromptSubmit' || w.hook === 'Stop';
const perTurn = plugin.map((s) => s.hookWaits.filter(turnHooks).reduce((sum, w) => sum + w.ms, 0) / (TURNS.length - 1));
if (values.json) console.log(JSON.stringify({ ...row, delayMs: DELAY_MS, bare: bare.map((s) => s.ms), plugin: plugin.map((s) => s.ms), byHook, perTurn }, null, 2));
else {
  console.log(`Interactive whole session, measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${cpus().length} cores, ${REPS} repetitions, interleaved; 1-minute load average ${loads.map((l) => l.toFixed(1)).join(' → ')}): one stream-json client process, ${TURNS.length - 1} turns with tool calls and one /clear, from the client's start to the last result${DELAY_MS > 0 ? `; **the fake API answers each model request ${DELAY_MS} ms late** (a model's latency: not the default row, which answers at once)` : ''}.`);
  console.log('');
  console.log('| session | median | each repetition | ratio | target | met |');
  console.log('| --- | ---: | --- | ---: | ---: | --- |');
  console.log(`| without the plugin | ${(row.bareMs / 1000).toFixed(2)} s | ${bare.map((s) => (s.ms / 1000).toFixed(2)).join(', ')} s | | | |`);
  console.log(`| with the plugin | ${(row.pluginMs / 1000).toFixed(2)} s | ${plugin.map((s) => (s.ms / 1000).toFixed(2)).join(', ')} s | ${row.ratio.toFixed(2)}× | ${DELAY_MS > 0 ? '(none: the target is the row without a delay) | |' : `≤ 1.10× | ${row.ratio <= 1.1 ? 'yes' : 'no'} |`}`);
  console.log('');
  console.log('The client waiting on our hooks, from its own debug log (the plugin\'s sessions): per hook, the median wait of one run, runs per session, and how many of them it moved to the background; then the wait per turn (UserPromptSubmit plus what of Stop it waited for).');
  console.log('');
  console.log('| hook | median wait | runs / session | in the background |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [hook, ws] of Object.entries(byHook)) console.log(`| ${hook} | ${median(ws.map((w) => w.ms)).toFixed(0)} ms | ${(ws.length / plugin.length).toFixed(1)} | ${(ws.filter((w) => w.background).length / plugin.length).toFixed(1)} |`);
  console.log(`| **per turn** (UserPromptSubmit + Stop, over ${TURNS.length - 1} turns) | ${median(perTurn).toFixed(0)} ms | | |`);
  // Where the difference goes: what the client waited for (the debug log; SessionEnd logs no
  // duration, so it shows only in the /clear turn below), and the rest: the client's own work
  // slowed by background hooks sharing the CPU, and SessionEnd.
  const waited = median(plugin.map((s) => s.hookWaits.filter((w) => !w.background).reduce((sum, w) => sum + w.ms, 0)));
  console.log('');
  console.log(`Of the ${((row.pluginMs - row.bareMs) / 1000).toFixed(2)} s a session takes longer with the plugin, the client waited ${(waited / 1000).toFixed(2)} s on hooks it ran in the foreground (median per session); the rest is SessionEnd (no duration in the log) and the client's own work slowed by the hooks it runs in the background. Per turn, the median time from sending it to its result:`);
  console.log('');
  console.log('| turn | without | with | difference |');
  console.log('| --- | ---: | ---: | ---: |');
  TURNS.forEach((text, i) => {
    const a = median(bare.map((s) => s.turns[i]));
    const b = median(plugin.map((s) => s.turns[i]));
    console.log(`| ${i + 1}. ${text.split(' ')[0]}${i === 0 ? " (with the client's start)" : ''} | ${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(b - a).toFixed(0)} ms |`);
  });
}
