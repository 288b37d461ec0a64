// Stop against other builds: the Stop hook alone, each build's dist on a workspace of its own
// (a repository with 60 capsules its own CLI wrote), one new turn shaped like bench/team-sync.mjs's
// (an edit, now and then a failing test, a reply with usage) before every run, the builds
// interleaved run by run with their order alternating. Prints per build the medians of wall,
// CPU (the hook and every git it waited for, from bash's `times`) and node's own CPU.
//
//   node bench/stop-ab.mjs [--rounds 41] <dist> [<dist> ...]
//
// A dist is a `dist/` folder (`npm run build -- --outdir DIR` builds one; `git worktree add` an
// older commit to build it). A build of a checkout marked by bench/lib/add-stop-marks.mjs also writes phase
// marks (wall since process start, CPU since the launcher); they are printed per build as
// medians, each with its step from the mark before: the in-process measure that stays readable
// when the machine's noise (±5 % between passes) hides a whole-hook difference.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './lib/bench-args.mjs';
import { median, timeCold } from './lib/measure.mjs';
import { makeProjectRepo } from './lib/project-repo.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values, positionals } = benchArgs(import.meta.url, { options: { rounds: { type: 'string', default: '41' } }, allowPositionals: true });
const ROUNDS = Number(values.rounds);
if (positionals.length === 0 || !Number.isInteger(ROUNDS) || ROUNDS < 1) {
  console.error('usage: node bench/stop-ab.mjs [--rounds 41] <dist> [<dist> ...]');
  process.exit(2);
}
const WORK = join(ROOT, '.bench-tmp', 'stop-ab');
const SESSION = '5e55a000-0000-4000-8000-000000000001';
// Node's own CPU, written at exit by a preload-free wrapper that then runs the hook as the host does.
const WRAPPER = join(WORK, 'node-cpu.cjs');
const WARMUP = 2;

rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
writeFileSync(WRAPPER, "process.on('exit', () => { const u = process.cpuUsage(); require('fs').appendFileSync(process.env.NODE_CPU_OUT, `${(u.user + u.system) / 1000}\\n`); });\nrequire(process.env.HOOK);\n");

const sides = positionals.map((spec, k) => {
  const dist = resolve(spec);
  if (!existsSync(join(dist, 'hooks', 'stop.js'))) throw new Error(`${dist} has no hooks/stop.js: pass a built dist/ folder`);
  const w = join(WORK, `w${k}`);
  mkdirSync(join(w, 'home'), { recursive: true });
  const env = { PATH: process.env.PATH, HOME: join(w, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(w, 'home', '.gitconfig'), TZ: 'UTC' };
  const dir = join(w, 'repo');
  makeProjectRepo(dir, env);
  for (let i = 0; i < 60; i++) execFileSync(process.execPath, [join(dist, 'git-capsule.js'), 'write', '--objective', `seed capsule ${i}`, '--waiting-on', 'nothing', '--next', `step ${i}`], { cwd: dir, env, stdio: 'ignore' });
  const transcript = join(w, 'session.jsonl');
  writeFileSync(transcript, '');
  const files = { nodeCpu: join(w, 'node-cpu.txt'), marks: join(w, 'marks.txt') };
  return { spec, dir, transcript, files, env: { ...env, HOOK: join(dist, 'hooks', 'stop.js'), NODE_CPU_OUT: files.nodeCpu, MARKS_OUT: files.marks }, wall: [], cpu: [], turn: 0 };
});

/** One turn as Claude Code writes it (bench/team-sync.mjs's shape). */
function appendTurn(s) {
  const n = ++s.turn;
  const base = { isSidechain: false, cwd: s.dir, sessionId: SESSION, timestamp: new Date().toISOString(), gitBranch: 'main' };
  const file = `${s.dir}/src/module${n % 23}.ts`;
  const records = [
    { ...base, type: 'user', uuid: `u${n}`, message: { role: 'user', content: `step ${n}: keep going on the feature` } },
    { ...base, type: 'assistant', uuid: `w${n}`, message: { id: `m${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `tw${n}`, name: 'Edit', input: { file_path: file, old_string: 'a', new_string: 'b' } }] } },
    { ...base, type: 'user', uuid: `wr${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tw${n}`, content: `The file ${file} has been updated.` }] } },
  ];
  if (n % 7 === 3) {
    records.push({ ...base, type: 'assistant', uuid: `b${n}`, message: { id: `mb${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `tb${n}`, name: 'Bash', input: { command: `npm test -- module${n % 23}`, description: 'run the tests' } }] } });
    records.push({ ...base, type: 'user', uuid: `br${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tb${n}`, content: `Exit code 1\nmodule${n % 23} test failed`, is_error: true }] } });
  }
  records.push({ ...base, type: 'assistant', uuid: `d${n}`, message: { id: `md${n}`, model: 'claude-sonnet-4-5', role: 'assistant', content: [{ type: 'text', text: `done with step ${n}` }], usage: { input_tokens: 2000, cache_creation_input_tokens: 0, cache_read_input_tokens: 20000 + 300 * (n % 50), output_tokens: 300 } } });
  appendFileSync(s.transcript, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

const loadStart = loadavg()[0];
for (let round = 0; round < ROUNDS + WARMUP; round++) {
  for (const s of round % 2 ? [...sides].reverse() : sides) {
    appendTurn(s);
    const input = JSON.stringify({ session_id: SESSION, transcript_path: s.transcript, cwd: s.dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: `done with step ${s.turn}` });
    const run = timeCold(process.execPath, [WRAPPER], { cwd: s.dir, env: s.env, input });
    if (run.stdout.trim() !== '') throw new Error(`${s.spec}: Stop printed ${run.stdout.slice(0, 200)}`);
    if (round >= WARMUP) {
      s.wall.push(run.ms);
      s.cpu.push(run.cpu);
    }
  }
}

const lines = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(WARMUP) : []);
console.log(`Stop, ${ROUNDS} rounds per build (after ${WARMUP} warm-up), 1-minute load ${loadStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}, ${new Date().toISOString().slice(0, 16)} UTC`);
const first = sides[0];
for (const s of sides) {
  const nodeCpu = median(lines(s.files.nodeCpu).map(Number));
  const ratio = (a, b) => `${(a / b).toFixed(3)}×`;
  console.log(`${s.spec}: wall ${median(s.wall).toFixed(1)} ms (${ratio(median(s.wall), median(first.wall))}), CPU ${median(s.cpu).toFixed(1)} ms (${ratio(median(s.cpu), median(first.cpu))}), node CPU ${nodeCpu.toFixed(1)} ms`);
}
for (const s of sides) {
  const rows = lines(s.files.marks);
  if (rows.length === 0) continue;
  const names = [];
  const walls = new Map();
  const cpus = new Map();
  for (const row of rows) {
    const seen = new Map();
    for (const part of row.split(' | ')) {
      const [raw, wall, cpu] = part.split(' ');
      const count = (seen.get(raw) ?? 0) + 1;
      seen.set(raw, count);
      const name = count > 1 ? `${raw}#${count}` : raw;
      if (!walls.has(name)) names.push(name), walls.set(name, []), cpus.set(name, []);
      walls.get(name).push(Number(wall));
      cpus.get(name).push(Number(cpu ?? 0));
    }
  }
  console.log(`\n${s.spec}, phase marks (median wall since process start, its step; median CPU since the launcher, its step):`);
  let wallBefore = 0;
  let cpuBefore = 0;
  for (const name of names) {
    const wall = median(walls.get(name));
    const cpu = median(cpus.get(name));
    console.log(`  ${name.padEnd(24)} ${wall.toFixed(1).padStart(6)} +${(wall - wallBefore).toFixed(1).padEnd(5)} cpu ${cpu.toFixed(1).padStart(6)} +${(cpu - cpuBefore).toFixed(1)}`);
    wallBefore = wall;
    cpuBefore = cpu;
  }
}
