// `npm run bench`: whole-process medians of the store's rows on fixtures of 100, 1,000 and
// 10,000 capsules, loose and after `git gc`, each divided by `node -e 0` measured in the same
// run, interleaved round-robin so load drift hits every row alike. Writes bench/results.md.
//
//   [BENCH_SIZES=100,1000,10000] [BENCH_RUNS=11] node bench/run.mjs
//
// `BENCH_SIZES=100 BENCH_RUNS=3` is a smoke run. It takes no options.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execFileSync } from 'node:child_process';
import { loadFixtureBuilder } from './lib/load-ts.mjs';
import { median } from './lib/measure.mjs';
import { selectNewestActiveRow, writeCapsuleRow } from './lib/store-rows.mjs';
import { resumeRow } from './lib/resume-rows.mjs';
import { benchArgs } from './lib/bench-args.mjs';

benchArgs(import.meta.url, { options: {} });

const ROOT = new URL('..', import.meta.url).pathname;
const BUNDLE = join(ROOT, 'dist', 'git-capsule.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,10000').split(',').map(Number);

// NODE_EXTRA_CA_CERTS adds ~50 ms of CPU to every node start (DESIGN §2): it is removed for
// every row and the floor alike, so the ratios show our cost, not the certificate bundle's.
const env = { ...process.env, CAPSULE_STATE_DIR: '' };
delete env.NODE_EXTRA_CA_CERTS;

/** Times a set of commands round-robin; returns medians in ms by key. */
export function measureInterleaved(commands, runs = RUNS) {
  const samples = new Map(commands.map((c) => [c.key, []]));
  for (let i = 0; i < runs + 1; i += 1) {
    for (const c of commands) {
      const start = performance.now();
      const r = spawnSync(c.command, c.args, { cwd: c.cwd, env: c.env ?? env, encoding: 'utf8' });
      const ms = performance.now() - start;
      if (r.status !== 0 || (c.check && !c.check(r.stdout))) throw new Error(`${c.key} failed (${r.status}): ${r.stderr || r.stdout}`);
      if (i > 0) samples.get(c.key).push(ms); // the first round warms the page cache
    }
  }
  return new Map([...samples].map(([k, v]) => [k, median(v)]));
}

/** Packs the fixture the way a user's `git gc` would. */
function packFixture(dir) {
  execFileSync('git', ['gc', '--quiet', '--prune=now'], { cwd: dir, env });
}

/** Loose and packed object counts, for the table. */
function objectCounts(dir) {
  const out = execFileSync('git', ['count-objects', '-v'], { cwd: dir, env, encoding: 'utf8' });
  const get = (k) => Number((out.match(new RegExp(`^${k}: (\\d+)`, 'm')) ?? [])[1] ?? 0);
  return { loose: get('count'), packed: get('in-pack') };
}

async function main() {
  const { buildMemoryFixture } = await loadFixtureBuilder();
  const work = mkdtempSync(join(tmpdir(), 'capsule-bench-'));
  const stateDir = join(work, 'state');
  env.CAPSULE_STATE_DIR = stateDir;
  try {
    const fixtures = [];
    for (const n of SIZES) {
      const t0 = performance.now();
      // 2 % active, the newest (up to 1,000) in this month's shard, each with a repo_head.
      const loose = buildMemoryFixture({ dir: join(work, `loose-${n}`), n, activeEvery: 50, monthShard: Math.min(n, 1000), cli: BUNDLE, env, loose: true });
      const packed = { ...loose, dir: join(work, `packed-${n}`) };
      cpSync(loose.dir, packed.dir, { recursive: true });
      packFixture(packed.dir);
      process.stderr.write(`fixtures N=${n} built in ${Math.round(performance.now() - t0)} ms\n`);
      fixtures.push({ ...loose, state: 'loose', objects: objectCounts(loose.dir) }, { ...packed, state: 'packed', objects: objectCounts(packed.dir) });
    }
    const rowMakers = [selectNewestActiveRow, writeCapsuleRow, resumeRow];
    const rows = fixtures.flatMap((fixture) => rowMakers.map((make) => ({ ...make({ bundle: BUNDLE, fixture }), fixture })));
    const commands = [
      { key: 'floor', command: process.execPath, args: ['-e', '0'] },
      ...rows.map((r, i) => ({ ...r, key: `row${i}` })),
    ];
    const loadBefore = loadavg()[0];
    const medians = measureInterleaved(commands);
    const load = [loadBefore, loadavg()[0]];
    const floor = medians.get('floor');
    const results = rows.map((r, i) => ({ ...r, ms: medians.get(`row${i}`), ratio: medians.get(`row${i}`) / floor }));
    const table = renderTable(results, floor, load);
    process.stdout.write(table);
    writeFileSync(join(ROOT, 'bench', 'results.md'), table);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function renderTable(results, floor, load) {
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    `Measured ${date} on this machine (${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}, ${spawnSync('git', ['--version'], { encoding: 'utf8' }).stdout.trim()}); medians of ${RUNS} whole-process runs, interleaved; \`node -e 0\` = ${floor.toFixed(1)} ms; 1-minute load average ${load[0].toFixed(1)} before, ${load[1].toFixed(1)} after (the machine is shared: ratios drift upward with load).`,
    '',
    '| row | N | objects | median | × `node -e 0` |',
    '| --- | ---: | --- | ---: | ---: |',
  ];
  for (const r of results) {
    lines.push(`| ${r.name} | ${r.fixture.n.toLocaleString('en-US')} | ${r.fixture.state} (${r.fixture.objects.loose} loose, ${r.fixture.objects.packed} packed) | ${r.ms.toFixed(1)} ms | ${r.ratio.toFixed(2)} |`);
  }
  const sel = (n, state) => results.find((r) => r.name === 'select newest active' && r.fixture.n === n && r.fixture.state === state);
  const small = Math.min(...SIZES);
  const big = Math.max(...SIZES);
  lines.push('', 'Targets:');
  for (const state of ['loose', 'packed']) {
    const growth = sel(big, state).ms / sel(small, state).ms;
    lines.push(`- selection at N=${big.toLocaleString('en-US')} vs N=${small} (${state}): ${growth.toFixed(2)}× (target ≤ 1.2×) ${growth <= 1.2 ? 'met' : 'NOT met'}`);
  }
  const worst = (name) => Math.max(...results.filter((r) => r.name === name).map((r) => r.ratio));
  lines.push(`- selection, worst row: ${worst('select newest active').toFixed(2)}× node (target ≤ 2.0×) ${worst('select newest active') <= 2.0 ? 'met' : 'NOT met'}`);
  lines.push(`- write, worst row: ${worst('write one capsule').toFixed(2)}× node (target ≤ 2.5×) ${worst('write one capsule') <= 2.5 ? 'met' : 'NOT met'}`);
  return `${lines.join('\n')}\n`;
}

await main();
