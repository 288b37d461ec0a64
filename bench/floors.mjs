// What a hook cannot go below on this machine: the pieces every hook row of bench/hooks.mjs
// stands on, each timed as its own cold process, interleaved round-robin with `node -e 0` so load
// drift hits every row alike. Issue 19's targets are ratios to `node -e 0`; these rows say how
// much of each ratio is spent before a hook does any work of its own:
//   - node loading `child_process` (every hook that starts git loads it, and its streams and net);
//   - node starting `git cat-file --batch` and reading one object (the store's one reader);
//   - the same, then a `git fast-import` of nothing (the two processes of a commit);
//   - each hook bundle given a payload without `cwd`: it starts, loads its code cache, validates
//     the payload and fails open with one error-log line (the shortest path through a bundle);
//   - Stop with no new turn: the whole Stop path, git's reader started, the autosave unchanged,
//     nothing committed (what a Stop costs before its fold changes anything);
//   - Stop with one new turn: the same, then the autosave committed by `git fast-import`.
//
//   node bench/floors.mjs [--runs 21] [--rows REGEX] [--json]   (--rows: only the rows whose name matches, and `node -e 0`)
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './lib/bench-args.mjs';
import { median, timeCold } from './lib/measure.mjs';
import { makeProjectRepo } from './lib/project-repo.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = benchArgs(import.meta.url, { options: { runs: { type: 'string', default: '21' }, rows: { type: 'string' }, json: { type: 'boolean' } } });
const RUNS = Number(values.runs);
const HOOKS = join(ROOT, 'dist', 'hooks');
const WORK = join(ROOT, '.bench-tmp', 'floors');
// NODE_EXTRA_CA_CERTS adds ~50 ms of CPU to every node start (DESIGN §2): unset for every row alike.
const env = { PATH: process.env.PATH, HOME: WORK, TZ: 'UTC' };
const git = (...args) => execFileSync('git', args, { cwd: REPO, env, encoding: 'utf8' }).trim();

// A project with a memory branch and a session whose one turn is already folded.
rmSync(WORK, { recursive: true, force: true });
const REPO = join(WORK, 'project');
makeProjectRepo(REPO, env);
execFileSync(process.execPath, [join(ROOT, 'dist', 'git-capsule.js'), 'init'], { cwd: REPO, env, stdio: 'ignore' });
const transcript = join(WORK, 'transcript.jsonl');
const base = { isSidechain: false, cwd: REPO, timestamp: '2026-12-02T00:00:00.000Z' };
appendFileSync(transcript, [
  { ...base, type: 'user', uuid: 'u1', message: { role: 'user', content: 'please edit file 1' } },
  { ...base, type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: 'done 1' }] } },
].map((r) => `${JSON.stringify(r)}\n`).join(''));
const stop = JSON.stringify({ session_id: 'bench-floors', transcript_path: transcript, cwd: REPO, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done 1' });
execFileSync(process.execPath, [join(HOOKS, 'stop.js')], { cwd: REPO, env, input: stop });
const tipAfterFold = git('rev-parse', 'refs/heads/capsules');

const catFile = `const c = require('node:child_process').spawn('git', ['cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'ignore'] });`;
const rows = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'node, require("node:child_process")', args: ['-e', 'require("node:child_process")'] },
  { name: 'node, git cat-file --batch, one read', args: ['-e', `${catFile} c.stdout.once('data', () => c.stdin.end()); c.stdin.write('HEAD\\n');`] },
  { name: 'node, one read, then git fast-import of nothing', args: ['-e', `${catFile} c.stdout.once('data', () => { c.stdin.end(); require('node:child_process').spawn('git', ['fast-import', '--quiet', '--done'], { stdio: ['pipe', 'ignore', 'ignore'] }).stdin.end('done\\n'); }); c.stdin.write('HEAD\\n');`] },
  ...['session-start', 'stop', 'pre-compact', 'user-prompt-submit'].map((h) => ({ name: `${h}.js, payload without cwd (fails open)`, args: [join(HOOKS, `${h}.js`)], input: '{}', expect: /HOOK_INPUT_INVALID/ })),
  { name: 'stop.js, no new turn (nothing committed)', args: [join(HOOKS, 'stop.js')], input: stop, expect: /^$/ },
  committingStop('stop.js, one new turn (committed)', 'bench-floors-commit', {}),
].filter((r, i) => i === 0 || !values.rows || new RegExp(values.rows).test(r.name)).map((r) => ({ ...r, wall: [], cpu: [] }));

/** A Stop row of its own session that gets one new turn before every run, so every run commits. */
function committingStop(name, session, extraEnv) {
  const path = join(WORK, `${session}.jsonl`);
  let turn = 0;
  return {
    name,
    args: [join(HOOKS, 'stop.js')],
    input: JSON.stringify({ session_id: session, transcript_path: path, cwd: REPO, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' }),
    env: { ...env, ...extraEnv },
    expect: /^$/,
    before: () => {
      turn += 1;
      appendFileSync(path, [
        { ...base, type: 'user', uuid: `${session}-u${turn}`, message: { role: 'user', content: `edit file ${turn}` } },
        { ...base, type: 'assistant', uuid: `${session}-t${turn}`, message: { role: 'assistant', content: [{ type: 'tool_use', id: `${session}-${turn}`, name: 'Edit', input: { file_path: join(REPO, `f${turn}.ts`), old_string: 'a', new_string: 'b' } }] } },
        { ...base, type: 'assistant', uuid: `${session}-a${turn}`, message: { role: 'assistant', content: [{ type: 'text', text: `done ${turn}` }] } },
      ].map((r) => `${JSON.stringify(r)}\n`).join(''));
    },
  };
}

/** One cold run of a row: its checks, then wall and CPU (bench/lib/measure.mjs). */
function time(row) {
  row.before?.();
  const t = timeCold(process.execPath, row.args, { cwd: REPO, input: row.input ?? '', env: row.env ?? env });
  if (row.expect && !row.expect.test(t.stdout.trim())) throw new Error(`${row.name}: unexpected output ${t.stdout.slice(0, 200)}`);
  return t;
}

const loadStart = loadavg()[0];
// Two warm-up rounds fill the page cache and each bundle's code cache; the order alternates round by round.
for (let i = 0; i < RUNS + 2; i++) {
  for (const row of i % 2 ? [...rows].reverse() : rows) {
    const t = time(row);
    if (i >= 2) { row.wall.push(t.ms); row.cpu.push(t.cpu); }
  }
}
const loadEnd = loadavg()[0];
const commits = git('log', '--format=%s', `${tipAfterFold}..refs/heads/capsules`).split('\n').filter(Boolean).length;
const committing = rows.filter((r) => r.before).length;
if (commits !== committing * (RUNS + 2)) throw new Error(`expected ${committing * (RUNS + 2)} commits from the committing Stop rows (none from the others), found ${commits}`);
const floor = { wall: median(rows[0].wall), cpu: median(rows[0].cpu) };
const out = rows.map((r) => ({ name: r.name, wallMs: median(r.wall), wallRatio: median(r.wall) / floor.wall, cpuMs: median(r.cpu), cpuRatio: median(r.cpu) / floor.cpu }));
if (values.json) console.log(JSON.stringify({ runs: RUNS, load: [loadStart, loadEnd], rows: out }, null, 2));
else {
  console.log(`Floors, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: medians of ${RUNS} cold runs, interleaved, order alternating; ${cpus().length} cores, node ${process.version}, load ${loadStart.toFixed(1)} → ${loadEnd.toFixed(1)}\n`);
  console.log('| row | wall | wall / `node -e 0` | CPU (incl. git) | CPU / `node -e 0` |\n| --- | ---: | ---: | ---: | ---: |');
  for (const r of out) console.log(`| ${r.name} | ${r.wallMs.toFixed(1)} ms | ${r.wallRatio.toFixed(2)}× | ${r.cpuMs.toFixed(0)} ms | ${r.cpuRatio.toFixed(2)}× |`);
}
