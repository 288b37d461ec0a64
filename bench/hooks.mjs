// Hook latency bench: cold `node` processes running the built hook bundles, as Claude Code runs
// them, against a floor of `node -e 0`. Runs are interleaved (floor, hook, floor, hook, …) so
// load from other processes hits both alike; medians are reported with the ratio to the floor.
//
//   node bench/hooks.mjs [--runs 15] [--capsules 10000] [--month-shard 1000] [--all-active] [--only ROW,…] [--json]
//
// --only: the rows whose names start with one of these (e.g. `SessionStart(clear),UserPromptSubmit`).
//
// Every row runs on one fixture (bench/lib/memory-fixture.ts): N capsules, 2 % active, the newest
// `--month-shard` of them in the current UTC month (where every write of the run lands), each
// carrying `repo_head` three commits behind the project's HEAD, so the resume measures HEAD drift;
// packed by `git gc`, then the newest written by the CLI, as a session's last save lands right
// before its /clear (the objects it touched loose, the rest packed).
// SessionStart(clear|compact): the resume (select, render, consume), every run from the same
// fixture tip (reset outside the timing). Stop: one new turn appended before every run, so every
// run commits the session's autosave. PreCompact: the session folded (no new turn, as after a
// Stop), then its checkpoint committed. UserPromptSubmit: the budget check.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './lib/bench-args.mjs';
import { keepObjectsLow, pastHousekeepingMark } from './lib/housekeeping-marks.mjs';
import { loadFixtureBuilder } from './lib/load-ts.mjs';
import { median, timeCold } from './lib/measure.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = benchArgs(import.meta.url, { options: { runs: { type: 'string', default: '15' }, capsules: { type: 'string', default: '10000' }, 'month-shard': { type: 'string', default: '1000' }, 'all-active': { type: 'boolean' }, only: { type: 'string' }, json: { type: 'boolean' } } });
const RUNS = Number(values.runs);
const N = Number(values.capsules);
const MONTH_SHARD = Number(values['month-shard']);
const HOOKS = join(ROOT, 'dist', 'hooks');
const CLI = join(ROOT, 'dist', 'git-capsule.js');
const WORK = join(ROOT, '.bench-tmp', 'hooks');
const TARGETS = { 'SessionStart(clear)': 2.0, 'SessionStart(compact)': 2.0, 'SessionStart(clear), all active': 2.0, Stop: 2.0, PreCompact: 2.0, UserPromptSubmit: 1.2, 'Interactive turn': 1.3 };
// The Codex rows run the same bundles as Codex runs them (`--host codex`, Codex payloads and rollouts) against the same targets.
for (const name of ['SessionStart(clear)', 'Stop', 'UserPromptSubmit']) TARGETS[`Codex ${name}`] = TARGETS[name];

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
// NODE_EXTRA_CA_CERTS adds ~50 ms of CPU to every node start (DESIGN §2): unset for the rows and the floor alike.
// No CAPSULE_STATE_DIR: the hooks keep their state in each repository's git dir, as installed.
const env = { PATH: process.env.PATH, HOME: WORK, TZ: process.env.TZ ?? 'UTC' };
const { buildMemoryFixture } = await loadFixtureBuilder();

/** The fixture for (n, active share), cached under .bench-tmp while its inputs are unchanged. */
function cachedFixture(n, activeEvery) {
  const month = new Date().toISOString().slice(0, 7);
  const inputs = createHash('sha1').update(readFileSync(join(ROOT, '.bench-tmp', 'memory-fixture.cjs'))).update(readFileSync(join(ROOT, 'dist', 'impl', 'git-capsule.js'))).digest('hex').slice(0, 12);
  const dir = join(WORK, `fixture-${n}-1in${activeEvery}-shard${MONTH_SHARD}-${month}-${inputs}`);
  if (existsSync(join(dir, '.bench-fixture.json'))) return JSON.parse(readFileSync(join(dir, '.bench-fixture.json'), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  const t0 = Date.now();
  const fixture = buildMemoryFixture({ dir, n, activeEvery, monthShard: MONTH_SHARD, cli: CLI, env, headMoved: 3, packThenWriteNewest: true });
  writeFileSync(join(dir, '.bench-fixture.json'), JSON.stringify(fixture));
  process.stderr.write(`fixture N=${n} (1 in ${activeEvery} active, ${MONTH_SHARD} this month) built in ${Date.now() - t0} ms\n`);
  return fixture;
}

/** A fresh copy of a cached fixture for one row (rows that write must not see each other's capsules). */
function copyOf(fixture, name) {
  const dir = join(WORK, 'rows', name);
  // A detached `git maintenance` an earlier run started may still be writing into it: retry.
  rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  cpSync(fixture.dir, dir, { recursive: true });
  return { ...fixture, dir };
}

function turn(i, cwd) {
  const t = new Date().toISOString();
  const use = `toolu_${i}`;
  return [
    { type: 'user', uuid: `u${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'user', content: `please edit file ${i}` } },
    { type: 'assistant', uuid: `a${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'assistant', content: [{ type: 'tool_use', id: use, name: 'Write', input: { file_path: `${cwd}/src/f${i}.ts`, content: 'x' } }] } },
    { type: 'user', uuid: `r${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: use, content: 'File created successfully' }] } },
    { type: 'assistant', uuid: `d${i}`, isSidechain: false, cwd, timestamp: t, message: { role: 'assistant', content: [{ type: 'text', text: `done ${i}` }] } },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** One Codex turn as its rollout records it: a prompt, an apply_patch with its FileChange, a failing command, the token count. */
function codexTurn(i, cwd) {
  const t = '2026-12-01T08:59:21.000Z';
  const line = (type, payload) => JSON.stringify({ timestamp: t, type, payload });
  const item = (it) => line('event_msg', { type: 'item_completed', item: it });
  return [
    line('turn_context', { turn_id: `t${i}`, cwd, model: 'gpt-5.5' }),
    item({ type: 'UserMessage', id: `u${i}`, content: [{ type: 'text', text: `please edit file ${i}` }] }),
    line('response_item', { type: 'custom_tool_call', name: 'apply_patch', call_id: `p${i}`, input: `*** Begin Patch\n*** Add File: src/f${i}.ts\n+x\n*** End Patch\n` }),
    item({ type: 'FileChange', id: `p${i}`, changes: { [`${cwd}/src/f${i}.ts`]: { type: 'add' } }, status: 'completed' }),
    line('response_item', { type: 'custom_tool_call_output', call_id: `p${i}`, output: 'Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess.\n' }),
    line('response_item', { type: 'function_call', name: 'exec_command', call_id: `c${i}`, arguments: JSON.stringify({ cmd: `npm test -- f${i}` }) }),
    item({ type: 'CommandExecution', id: `c${i}`, command: ['/bin/bash', '-lc', `npm test -- f${i}`], cwd: `file://${cwd}`, status: 'failed', aggregated_output: `f${i} failed\n`, exit_code: 1 }),
    line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `done ${i}` }] }),
    line('event_msg', { type: 'token_count', info: { last_token_usage: { input_tokens: 20000 + i, output_tokens: 10, total_tokens: 20010 + i }, model_context_window: 258400 } }),
  ].join('\n') + '\n';
}

/** One cold run (bench/lib/measure.mjs), in this bench's environment. */
const time = (cmd, args, input) => timeCold(cmd, args, { input, env });

/**
 * Runs one row: `prepare(i)` outside the timing, then floor and hook back to back; `check` judges
 * the hook's stdout; `args` follow the bundle (`--host codex`). `repo`: the repository the hook
 * writes into, kept below the housekeeping mark (a run that would start maintenance fails the row).
 */
function bench(name, { prepare, file, input, check, args = [], repo }) {
  const floor = [];
  const hook = [];
  const loadBefore = loadavg()[0];
  for (let i = 0; i < RUNS + 2; i++) {
    if (repo) keepObjectsLow(repo, git);
    prepare?.(i);
    const f = time(process.execPath, ['-e', '0'], '');
    const h = time(process.execPath, [join(HOOKS, file), ...args], input(i));
    if (repo && pastHousekeepingMark(repo)) throw new Error(`${name}: a timed run crossed the housekeeping mark in ${repo}`);
    if (/systemMessage/.test(h.stdout ?? '')) throw new Error(`${name} failed open: ${h.stdout}`);
    if (check && !check(h.stdout)) throw new Error(`${name}: unexpected output: ${h.stdout.slice(0, 400)}`);
    if (i >= 2) { floor.push(f); hook.push(h); } // two warm-up rounds fill the page cache and the code cache
  }
  const row = { name, hookMs: median(hook.map((x) => x.ms)), floorMs: median(floor.map((x) => x.ms)), hookCpu: median(hook.map((x) => x.cpu)), floorCpu: median(floor.map((x) => x.cpu)), load: [loadBefore, loadavg()[0]] };
  row.ratio = row.hookMs / row.floorMs;
  row.cpuRatio = row.hookCpu / row.floorCpu;
  row.target = TARGETS[name];
  row.met = row.ratio <= row.target;
  process.stderr.write(`${name}: ${row.ratio.toFixed(2)}× (load ${row.load.map((l) => l.toFixed(1)).join('→')})\n`);
  return row;
}

const payload = (event, fx, extra) => JSON.stringify({ session_id: 'bench-session', transcript_path: join(WORK, 'bench-transcript.jsonl'), cwd: fx.dir, hook_event_name: event, ...extra });
/** Puts the memory branch back to the fixture's tip before a run (outside the timing). */
const resetTo = (dir) => {
  const tip = git(dir, 'rev-parse', 'refs/heads/capsules');
  return () => git(dir, 'update-ref', 'refs/heads/capsules', tip);
};
/** The resume text names the newest capsule and measured HEAD drift (the fixtures carry repo_head). */
const resumed = (fx) => (stdout) => stdout.includes(fx.newestId) && /project HEAD: moved 3 commits/.test(stdout);
const wanted = (name) => values.only === undefined || values.only.split(',').some((w) => name.startsWith(w));

mkdirSync(WORK, { recursive: true });
const fixture = cachedFixture(N, 50);
const rows = [];
const loadStart = loadavg()[0];

for (const source of ['clear', 'compact']) {
  const name = `SessionStart(${source})`;
  if (!wanted(name)) continue;
  const fx = copyOf(fixture, `session-start-${source}`);
  rows.push(bench(name, { repo: fx.dir, prepare: resetTo(fx.dir), file: 'session-start.js', input: () => payload('SessionStart', fx, { source, ...(source === 'compact' ? { model: 'claude-opus-5-5' } : {}) }), check: resumed(fx) }));
}
if (values['all-active'] && wanted('SessionStart(clear), all active')) {
  const fx = copyOf(cachedFixture(N, 1), 'session-start-all-active');
  rows.push(bench('SessionStart(clear), all active', { repo: fx.dir, prepare: resetTo(fx.dir), file: 'session-start.js', input: () => payload('SessionStart', fx, { source: 'clear' }), check: resumed(fx) }));
}

// Stop and PreCompact: one session writing into the 1,000-capsule month of a copy of the fixture.
const session = copyOf(fixture, 'session');
const transcript = join(WORK, 'session-transcript.jsonl');
writeFileSync(transcript, '');
const sessionPayload = (event, extra) => JSON.stringify({ session_id: 'bench-session', transcript_path: transcript, cwd: session.dir, hook_event_name: event, ...extra });
if (wanted('Stop')) {
  rows.push(bench('Stop', { repo: session.dir, prepare: (i) => appendFileSync(transcript, turn(i, session.dir)), file: 'stop.js', input: () => sessionPayload('Stop', { stop_hook_active: false, last_assistant_message: 'done' }), check: (out) => out.trim() === '' }));
}
if (wanted('PreCompact')) {
  rows.push(bench('PreCompact', { repo: session.dir, file: 'pre-compact.js', input: () => sessionPayload('PreCompact', { trigger: 'manual', custom_instructions: null }), check: (out) => /checkpoint [0-9A-Z]{26}/.test(out) }));
}
if (wanted('UserPromptSubmit')) {
  rows.push(bench('UserPromptSubmit', { file: 'user-prompt-submit.js', input: () => sessionPayload('UserPromptSubmit', { prompt: 'hello', permission_mode: 'acceptEdits' }) }));
  // What an interactive turn waits on: UserPromptSubmit, and none of Stop, which the client runs
  // in the background (hooks/hooks.json `asyncRewake`; SessionStart(clear) folds a last turn it
  // has not reached, lib/hooks/fold-cleared.ts; bench/interactive-session.mjs reads the client's
  // own wait per turn from its debug log).
  const ups = rows.at(-1);
  rows.push({ ...ups, name: 'Interactive turn: UserPromptSubmit + Stop in the background', target: TARGETS['Interactive turn'], met: ups.ratio <= TARGETS['Interactive turn'] });
}
// Codex: the same bundles declared `--host codex`, payloads shaped as Codex 0.169.0 sends them
// (codex-harness payloads/), a rollout that grows by one apply_patch turn and one failing command per Stop.
const CODEX_SESSION = '01a230d4-782a-72d0-ba84-41438a9184ed';
const rollout = join(WORK, `rollout-2026-12-01T08-59-20-${CODEX_SESSION}.jsonl`);
const codexPayload = (event, cwd, extra) => JSON.stringify({ session_id: CODEX_SESSION, transcript_path: rollout, cwd, hook_event_name: event, model: 'gpt-5.5', ...extra });
const codex = ['--host', 'codex'];
if (wanted('Codex')) {
  const fx = copyOf(fixture, 'codex-session-start');
  const codexSession = copyOf(fixture, 'codex-session');
  writeFileSync(rollout, codexTurn(0, codexSession.dir));
  rows.push(bench('Codex SessionStart(clear)', { repo: fx.dir, prepare: resetTo(fx.dir), file: 'session-start.js', input: () => codexPayload('SessionStart', fx.dir, { permission_mode: 'default', source: 'clear' }), check: (out) => out.includes(fx.newestId), args: codex }));
  rows.push(bench('Codex Stop', { repo: codexSession.dir, prepare: (i) => appendFileSync(rollout, codexTurn(i + 1, codexSession.dir)), file: 'stop.js', input: () => codexPayload('Stop', codexSession.dir, { turn_id: 't', permission_mode: 'bypassPermissions', stop_hook_active: false, last_assistant_message: 'done' }), args: codex }));
  rows.push(bench('Codex UserPromptSubmit', { file: 'user-prompt-submit.js', input: () => codexPayload('UserPromptSubmit', fx.dir, { turn_id: 't', permission_mode: 'bypassPermissions', prompt: 'hello' }), args: codex }));
}
const loadEnd = loadavg()[0];

if (values.json) console.log(JSON.stringify({ runs: RUNS, capsules: N, monthShard: MONTH_SHARD, load: [loadStart, loadEnd], rows }, null, 2));
else {
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const lines = [
    `Hook rows, measured ${stamp} UTC (${cpus().length} cores, node ${process.version}, ${spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim()}, 1-minute load average ${loadStart.toFixed(1)} at the start, ${loadEnd.toFixed(1)} at the end): medians of ${RUNS} cold runs of the built bundles, each interleaved with \`node -e 0\`; ${N.toLocaleString('en-US')} capsules, 2 % active, ${MONTH_SHARD.toLocaleString('en-US')} of them in this month's shard, each with a repo_head 3 commits behind HEAD.`,
    '',
    '| hook | median wall | `node -e 0` wall | wall ratio | CPU (incl. git) | `node -e 0` CPU | CPU ratio | load (1 min) | target | met (wall) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map((r) => `| ${r.name} | ${r.hookMs.toFixed(1)} ms | ${r.floorMs.toFixed(1)} ms | ${r.ratio.toFixed(2)}× | ${r.hookCpu.toFixed(0)} ms | ${r.floorCpu.toFixed(0)} ms | ${r.cpuRatio.toFixed(2)}× | ${r.load.map((l) => l.toFixed(1)).join('–')} | ≤ ${r.target}× | ${r.met ? 'yes' : 'no'} |`),
  ];
  console.log(lines.join('\n'));
  if (values.only === undefined) writeFileSync(join(ROOT, 'bench', 'hooks-results.md'), `${lines.join('\n')}\n`);
}
