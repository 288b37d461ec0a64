// Sync and Stop, this build against another (an older version's dist/), interleaved round by
// round so the machine's load hits both alike, with `node -e 0` as the floor in the same rounds.
// Each side has its own bare remote and two clones, seeded with SEED capsules by its own CLI.
// A round: a turn of transcript and a Stop in each clone, then A pushes (push), B merges (merge:
// both sides moved), A fast-forwards (fast-forward). Each sync row also gives its CPU: user+sys of the
// CLI and every git it waited for (from /proc/self/stat, 10 ms ticks).
//
//   npm run build && node bench/sync-ab.mjs --other /tmp/old/dist [--this dist] [--rounds 9] [--seed 60] [--json]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchArgs } from './lib/bench-args.mjs';
import { median } from './lib/measure.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = benchArgs(import.meta.url, { options: { other: { type: 'string' }, this: { type: 'string', default: 'dist' }, rounds: { type: 'string', default: '9' }, seed: { type: 'string', default: '60' }, json: { type: 'boolean' } } });
if (!values.other) throw new Error('--other <dist dir> is required (e.g. git archive <old commit> dist | tar -x -C /tmp/old)');
const ROUNDS = Number(values.rounds);
const SEED = Number(values.seed);
const WORK = join(ROOT, '.bench-tmp', 'sync-ab');
rmSync(WORK, { recursive: true, force: true });
mkdirSync(join(WORK, 'home'), { recursive: true });
const ENV = { PATH: process.env.PATH, HOME: join(WORK, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(WORK, 'home', '.gitconfig'), TZ: 'UTC' };
const git = (cwd, args) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();
// CPU of the child and everything it waited for (its git processes): the waited-for children's user+sys in /proc/self/stat, in clock ticks (10 ms).
const childCpuMs = () => { const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' '); return (Number(f[13]) + Number(f[14])) * 10; };
const timed = (cmd, args, opts) => { const c0 = childCpuMs(); const t0 = performance.now(); const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts }); if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`); return { ms: performance.now() - t0, cpuMs: childCpuMs() - c0, stdout: r.stdout }; };

function side(label, dist) {
  const base = join(WORK, label);
  const remote = join(base, 'remote.git');
  mkdirSync(base, { recursive: true });
  git(base, ['init', '-q', '--bare', '-b', 'main', remote]);
  const clones = ['a', 'b'].map((n) => {
    const dir = join(base, n);
    git(base, ['clone', '-q', remote, dir]);
    git(dir, ['config', 'user.name', n]);
    git(dir, ['config', 'user.email', `${n}@example.com`]);
    return { dir, transcript: join(base, `${n}.jsonl`), session: `5e55a000-0000-4000-8000-00000000000${n === 'a' ? 1 : 2}`, turn: 0 };
  });
  const cli = (c, args) => timed(process.execPath, [join(dist, 'git-capsule.js'), ...args], { cwd: c.dir, env: ENV });
  for (const c of clones) writeFileSync(c.transcript, '');
  for (let i = 0; i < SEED; i += 1) cli(clones[i % 2], ['write', '--objective', `seed capsule ${i}`, '--waiting-on', 'nothing', '--next', `step ${i}`]);
  cli(clones[0], ['sync', '--quiet']);
  cli(clones[1], ['sync', '--quiet']);
  cli(clones[0], ['sync', '--quiet']);
  return { label, dist, clones, cli };
}

function stop(s, c) {
  c.turn += 1;
  const t = new Date().toISOString();
  const base = { isSidechain: false, cwd: c.dir, sessionId: c.session, timestamp: t, gitBranch: 'main' };
  const records = [
    { ...base, type: 'user', uuid: `u${c.turn}`, message: { role: 'user', content: `step ${c.turn}` } },
    { ...base, type: 'assistant', uuid: `w${c.turn}`, message: { id: `m${c.turn}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${c.turn}`, name: 'Write', input: { file_path: `${c.dir}/src/f${c.turn}.ts`, content: 'x\n' } }] } },
    { ...base, type: 'user', uuid: `r${c.turn}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${c.turn}`, content: 'File created successfully' }] } },
    { ...base, type: 'assistant', uuid: `d${c.turn}`, message: { id: `md${c.turn}`, role: 'assistant', content: [{ type: 'text', text: `done ${c.turn}` }] } },
  ];
  appendFileSync(c.transcript, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const input = JSON.stringify({ session_id: c.session, transcript_path: c.transcript, cwd: c.dir, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' });
  return timed(process.execPath, [join(s.dist, 'hooks', 'stop.js')], { cwd: c.dir, env: ENV, input }).ms;
}

function sync(s, c, expected) {
  const r = s.cli(c, ['sync', '--json']);
  const action = JSON.parse(r.stdout).action;
  if (action !== expected) throw new Error(`${s.label}: expected ${expected}, got ${action}`);
  return r;
}

const sides = [side('this', resolve(ROOT, values.this)), side('other', resolve(values.other))];
const rows = Object.fromEntries(sides.map((s) => [s.label, { stop: [], push: [], merge: [], fastForward: [], pushCpu: [], mergeCpu: [], fastForwardCpu: [] }]));
const floor = [];
const loads = [loadavg()[0]];
for (let round = 0; round < ROUNDS + 1; round += 1) {
  for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
    const row = rows[s.label];
    floor.push(timed(process.execPath, ['-e', '0'], { env: ENV }).ms);
    const stops = [stop(s, s.clones[0]), stop(s, s.clones[1])];
    const push = sync(s, s.clones[0], 'push');
    const merge = sync(s, s.clones[1], 'merge');
    const ff = sync(s, s.clones[0], 'fast-forward');
    if (round === 0) continue; // a warm-up round: page cache, code caches
    row.stop.push(...stops);
    for (const [k, r] of [['push', push], ['merge', merge], ['fastForward', ff]]) {
      row[k].push(r.ms);
      row[`${k}Cpu`].push(r.cpuMs);
    }
  }
  loads.push(loadavg()[0]);
}
const result = {
  rounds: ROUNDS, seed: SEED, cores: cpus().length, node: process.version, load: { min: Math.min(...loads), max: Math.max(...loads) }, floorMs: median(floor),
  rows: Object.fromEntries(Object.entries(rows).map(([k, r]) => [k, { stopMs: median(r.stop), pushMs: median(r.push), mergeMs: median(r.merge), fastForwardMs: median(r.fastForward), pushCpuMs: median(r.pushCpu), mergeCpuMs: median(r.mergeCpu), fastForwardCpuMs: median(r.fastForwardCpu) }])),
};
if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  const t = result.rows.this;
  const o = result.rows.other;
  const cell = (a, b) => `${a.toFixed(0)} ms | ${b.toFixed(0)} ms | ${(a / b).toFixed(2)}×`;
  console.log([
    `sync and Stop, this build against ${values.other}: medians of ${ROUNDS} interleaved rounds, ${SEED} seed capsules; ${result.cores} cores, node ${result.node}, load ${result.load.min.toFixed(1)}–${result.load.max.toFixed(1)}; node -e 0 ${result.floorMs.toFixed(0)} ms`,
    '',
    '| row | this build | other | ratio | CPU this | CPU other | CPU ratio |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| Stop (one turn) | ${cell(t.stopMs, o.stopMs)} | | | |`,
    `| sync, push | ${cell(t.pushMs, o.pushMs)} | ${cell(t.pushCpuMs, o.pushCpuMs)} |`,
    `| sync, merge (both sides moved) | ${cell(t.mergeMs, o.mergeMs)} | ${cell(t.mergeCpuMs, o.mergeCpuMs)} |`,
    `| sync, fast-forward | ${cell(t.fastForwardMs, o.fastForwardMs)} | ${cell(t.fastForwardCpuMs, o.fastForwardCpuMs)} |`,
  ].join('\n'));
}
rmSync(WORK, { recursive: true, force: true });
