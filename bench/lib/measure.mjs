// Whole-process timing: spawn a command N times and take the median wall time, the way a
// hook or a user pays for it (node start, bundle load, every git call).
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** Median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs `command args` `runs` times (after `warmup` unmeasured runs) and returns the median
 * wall time in ms. `before(i)` runs before each measured run, outside the timing.
 */
export function timeProcess({ command, args, cwd, env, runs = 10, warmup = 2, before, input }) {
  const samples = [];
  for (let i = 0; i < warmup + runs; i += 1) {
    if (before) before(i);
    const start = performance.now();
    const r = spawnSync(command, args, { cwd, env, input, stdio: ['pipe', 'pipe', 'pipe'] });
    const ms = performance.now() - start;
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (i >= warmup) samples.push(ms);
  }
  return { medianMs: median(samples), samples };
}

/** The node floor: `node -e 0`, measured in the same run as the rows it divides. */
export function nodeFloor({ runs = 10, env } = {}) {
  return timeProcess({ command: process.execPath, args: ['-e', '0'], env, runs });
}

/**
 * One cold run of `command args`: wall ms, and CPU ms of the process and every child it waited
 * for (git), read from bash's `times` (the steadier number on a shared machine). Throws when it
 * exits non-zero. BASH_ENV is cleared so bash reads no start-up file.
 */
export function timeCold(command, args, { input = '', env = {}, cwd } = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', '"$@"; times >&2', '_', command, ...args], { cwd, input, env: { ...env, BASH_ENV: '' }, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${[command, ...args].join(' ')} exited ${r.status}: ${r.stderr}`);
  const children = (r.stderr.trim().split('\n').at(-1) ?? '').match(/(\d+)m([\d.]+)s/g) ?? [];
  const cpu = children.reduce((sum, t) => { const [, m, sec] = /(\d+)m([\d.]+)s/.exec(t); return sum + (Number(m) * 60 + Number(sec)) * 1000; }, 0);
  return { ms, cpu, stdout: r.stdout };
}
