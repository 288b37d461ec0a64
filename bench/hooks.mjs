// Hook latency bench: cold `node` processes running the built hook bundles, as Claude Code runs
// them, against a floor of `node -e 0`. Runs are interleaved (floor, hook, floor, hook, …) so
// load from other processes hits both alike; medians are reported with the ratio to the floor.
//
//   node bench/hooks.mjs [--runs 15] [--capsules 10000] [--json]
//
// Rows: SessionStart(clear) with N capsules on the memory branch (2 % active, the rest resumed
// or resolved, as on a branch in use; and, reported apart, the worst case of all N active), Stop
// for one turn of transcript (a new turn appended before every run, so every run commits),
// UserPromptSubmit. Every SessionStart run starts from the same fixture tip (reset outside the
// timing), so the capsules consumed by earlier runs do not change what is measured.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, capsules: { type: 'string', default: '10000' }, json: { type: 'boolean' } } });
const RUNS = Number(values.runs);
const N = Number(values.capsules);
const HOOKS = join(ROOT, 'dist', 'hooks');
const CLI = join(ROOT, 'dist', 'git-capsule.js');
const WORK = join(ROOT, '.bench-tmp', 'hooks');
const TARGETS = { 'SessionStart(clear)': 2.0, 'SessionStart(clear), all active': 2.0, Stop: 2.5, UserPromptSubmit: 1.4 };
// The Codex rows run the same bundles as Codex runs them (`--host codex`, Codex payloads and rollouts) against the same targets.
for (const name of ['SessionStart(clear)', 'Stop', 'UserPromptSubmit']) TARGETS[`Codex ${name}`] = TARGETS[name];

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();

/**
 * A repository with N capsules on its memory branch, one in `activeEvery` active and the rest
 * resumed or resolved by a status event; cached under .bench-tmp (generation takes a while).
 */
function repoWithCapsules(n, activeEvery) {
  const dir = join(WORK, `repo-${n}-active-1-in-${activeEvery}`);
  if (existsSync(join(dir, '.ready'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'bench@example.invalid');
  git(dir, 'config', 'user.name', 'bench');
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  execFileSync(process.execPath, [CLI, 'init'], { cwd: dir, stdio: 'ignore' });
  // One fast-import stream writes every capsule document where the store keeps them; reindex
  // then derives the selection index the hooks read.
  // One capsule an hour (~14 months for 10,000): the store shards its index by month, so
  // piling every capsule into one month would measure a worst case no real project reaches.
  const base = Date.UTC(2025, 8, 1);
  let stream = `commit refs/heads/capsules\ncommitter bench <bench@example.invalid> 1767225600 +0000\ndata 11\nbench fill\nfrom refs/heads/capsules^0\n`;
  for (let i = 0; i < n; i++) {
    const at = new Date(base + i * 3_600_000);
    const id = ulid(at.getTime(), i);
    const month = `${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
    const doc = `---\nid: ${id}\nobjective: "bench objective ${i}: keep the widget parser fast"\nwaiting_on: "nothing"\nnext_valid_action: "run the widget tests and fix the first failure ${i}"\nstatus: active\ntrigger: manual\ncreated_at: ${at.toISOString().slice(0, 19)}Z\n---\n\n<!-- capsule:done -->\n## Done [REFERENCE ONLY]\n- wrote part ${i}\n`;
    stream += `M 100644 inline capsules/${month}/${id}/capsule.md\ndata ${Buffer.byteLength(doc)}\n${doc}\n`;
    if (i % activeEvery !== 0) {
      const status = i % 2 === 0 ? 'resolved' : 'resumed';
      const spent = new Date(at.getTime() + 1_800_000);
      const event = `status: ${status}\nwriter: fixture\nat: ${spent.toISOString()}\n`;
      stream += `M 100644 inline capsules/${month}/${id}/status/${spent.toISOString().replace(/[-:.]/g, '')}-fixture-${status}\ndata ${Buffer.byteLength(event)}\n${event}\n`;
    }
  }
  stream += 'done\n';
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: dir, input: stream, maxBuffer: 1 << 28 });
  execFileSync(process.execPath, [CLI, 'reindex'], { cwd: dir, stdio: 'ignore' });
  git(dir, 'gc', '-q');
  writeFileSync(join(dir, '.ready'), '');
  return dir;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A valid ULID for instant `ms`, its random part derived from `n` (deterministic fixtures). */
function ulid(ms, n) {
  let time = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let rand = '';
  for (let i = 0, r = n; i < 16; i++, r = Math.floor(r / 32)) rand = CROCKFORD[r % 32] + rand;
  return time + rand;
}

function payload(event, dir, extra) {
  return JSON.stringify({ session_id: 'bench-session', transcript_path: join(dir, '..', 'bench-transcript.jsonl'), cwd: dir, hook_event_name: event, ...extra });
}

function turn(i, cwd) {
  const t = '2026-11-29T21:00:00.000Z';
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

/**
 * One cold run: wall ms, and CPU ms of the process and every child it waited for (git), read
 * from bash's `times`. CPU is the steadier number on a shared machine; wall is what a user waits.
 */
function time(cmd, args, input, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', '"$@"; times >&2', '_', cmd, ...args], { input, env: { ...env, BASH_ENV: '' }, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const lines = r.stderr.trim().split('\n');
  const children = (lines.at(-1) ?? '').match(/(\d+)m([\d.]+)s/g) ?? [];
  const cpu = children.reduce((sum, t) => { const [, m, sec] = /(\d+)m([\d.]+)s/.exec(t); return sum + (Number(m) * 60 + Number(sec)) * 1000; }, 0);
  return { ms, cpu, stdout: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function bench(name, prepare, file, input, env, args = []) {
  const floor = [];
  const hook = [];
  for (let i = 0; i < RUNS + 2; i++) {
    prepare?.(i);
    const f = time(process.execPath, ['-e', '0'], '', env);
    const h = time(process.execPath, [join(HOOKS, file), ...args], input(i), env);
    if (/systemMessage/.test(h.stdout ?? '')) throw new Error(`${name} failed open`);
    if (i >= 2) { floor.push(f); hook.push(h); } // two warm-up rounds fill the page cache and the code cache
  }
  const row = { name, hookMs: median(hook.map((x) => x.ms)), floorMs: median(floor.map((x) => x.ms)), hookCpu: median(hook.map((x) => x.cpu)), floorCpu: median(floor.map((x) => x.cpu)) };
  row.ratio = row.hookMs / row.floorMs;
  row.cpuRatio = row.hookCpu / row.floorCpu;
  row.target = TARGETS[name];
  row.met = row.ratio <= row.target;
  return row;
}

mkdirSync(WORK, { recursive: true });
const bigRepo = repoWithCapsules(N, 50);
const allActiveRepo = repoWithCapsules(N, 1);
/** Puts the memory branch back to the fixture's tip before a run (outside the timing). */
const resetTo = (dir) => {
  const tip = git(dir, 'rev-parse', 'refs/heads/capsules');
  return () => git(dir, 'update-ref', 'refs/heads/capsules', tip);
};
const stateDir = join(WORK, 'state');
const env = { PATH: process.env.PATH, HOME: WORK, CAPSULE_STATE_DIR: stateDir };
const rows = [];

rows.push(bench('SessionStart(clear)', resetTo(bigRepo), 'session-start.js', () => payload('SessionStart', bigRepo, { source: 'clear' }), env));
rows.push(bench('SessionStart(clear), all active', resetTo(allActiveRepo), 'session-start.js', () => payload('SessionStart', allActiveRepo, { source: 'clear' }), env));

const small = join(WORK, 'repo-stop');
rmSync(small, { recursive: true, force: true });
mkdirSync(small, { recursive: true });
git(small, 'init', '-q', '-b', 'main');
const transcript = join(WORK, 'bench-transcript.jsonl');
writeFileSync(transcript, '');
rmSync(stateDir, { recursive: true, force: true });
rows.push(bench('Stop', (i) => appendFileSync(transcript, turn(i, small)), 'stop.js',
  () => JSON.stringify({ session_id: 'bench-session', transcript_path: transcript, cwd: small, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' }), env));

rows.push(bench('UserPromptSubmit', null, 'user-prompt-submit.js', () => payload('UserPromptSubmit', bigRepo, { prompt: 'hello', permission_mode: 'acceptEdits' }), env));

// Codex: the same bundles declared `--host codex`, payloads shaped as Codex 0.169.0 sends them
// (codex-harness payloads/), a rollout that grows by one apply_patch turn and one failing command per Stop.
const CODEX_SESSION = '01a230d4-782a-72d0-ba84-41438a9184ed';
const rollout = join(WORK, `rollout-2026-12-01T08-59-20-${CODEX_SESSION}.jsonl`);
const codexPayload = (event, cwd, extra) => JSON.stringify({ session_id: CODEX_SESSION, transcript_path: rollout, cwd, hook_event_name: event, model: 'gpt-5.5', ...extra });
const codex = ['--host', 'codex'];
writeFileSync(rollout, codexTurn(0, small));
rows.push(bench('Codex SessionStart(clear)', resetTo(bigRepo), 'session-start.js', () => codexPayload('SessionStart', bigRepo, { permission_mode: 'default', source: 'clear' }), env, codex));
rows.push(bench('Codex Stop', (i) => appendFileSync(rollout, codexTurn(i + 1, small)), 'stop.js',
  () => codexPayload('Stop', small, { turn_id: 't', permission_mode: 'bypassPermissions', stop_hook_active: false, last_assistant_message: 'done' }), env, codex));
rows.push(bench('Codex UserPromptSubmit', null, 'user-prompt-submit.js', () => codexPayload('UserPromptSubmit', bigRepo, { turn_id: 't', permission_mode: 'bypassPermissions', prompt: 'hello' }), env, codex));

if (values.json) console.log(JSON.stringify({ runs: RUNS, capsules: N, rows }, null, 2));
else {
  const lines = [
    `Hook rows, measured ${new Date().toISOString().slice(0, 10)} (${cpus().length} cores, node ${process.version}, load average ${loadavg()[0].toFixed(1)}): medians of ${RUNS} cold runs of the built bundles, each interleaved with \`node -e 0\`; SessionStart(clear) on ${N.toLocaleString('en-US')} capsules (resume: select, render, consume), 2 % of them active (the rest resumed or resolved), and the worst case of all ${N.toLocaleString('en-US')} active.`,
    '',
    '| hook | median wall | `node -e 0` wall | wall ratio | CPU (incl. git) | `node -e 0` CPU | CPU ratio | target | met (wall) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map((r) => `| ${r.name} | ${r.hookMs.toFixed(1)} ms | ${r.floorMs.toFixed(1)} ms | ${r.ratio.toFixed(2)}× | ${r.hookCpu.toFixed(0)} ms | ${r.floorCpu.toFixed(0)} ms | ${r.cpuRatio.toFixed(2)}× | ≤ ${r.target}× | ${r.met ? 'yes' : 'no'} |`),
  ];
  console.log(lines.join('\n'));
  writeFileSync(join(ROOT, 'bench', 'hooks-results.md'), `${lines.join('\n')}\n`);
}
