// A/B of reading and writing the git files directly (opt-in: CAPSULE_OBJECT_FILES=1) against
// the default (a long-lived `cat-file --batch` and `fast-import`), and optionally a
// baseline build's hooks (another checkout's dist/hooks), on the hook bench's fixture:
// SessionStart(clear) and Stop, cold runs interleaved with `node -e 0`, the variants' order
// rotated every run. Each variant keeps its own code cache: a cache written by one variant
// holds only what that variant compiled, and the other would compile its path on every start.
//
//   node bench/hooks.mjs --only none --runs 1    # builds (or finds) the fixture
//   node bench/object-files-ab.mjs <fixture dir> [runs] [baseline dist/hooks dir]
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { timeCold } from './lib/measure.mjs';
const ROOT = resolve(import.meta.dirname, '..');
const HOOKS = join(ROOT, 'dist', 'hooks');
const fxDir = process.argv[2];
const RUNS = Number(process.argv[3] ?? 15);
const BASELINE = process.argv[4];
const WORK = join(ROOT, '.bench-tmp', 'object-files-ab');
rmSync(WORK, { recursive: true, force: true });
const fx = JSON.parse(readFileSync(join(fxDir, '.bench-fixture.json'), 'utf8'));
const git = (cwd, ...a) => execFileSync('git', a, { cwd, encoding: 'utf8' }).trim();
// NODE_EXTRA_CA_CERTS is left out, as in every bench (DESIGN §2).
const base = { PATH: process.env.PATH, HOME: WORK, TZ: 'UTC' };
const variants = { direct: { ...base, CAPSULE_OBJECT_FILES: '1', CAPSULE_CODE_CACHE_DIR: join(WORK, 'cc-direct') }, git: { ...base, CAPSULE_OBJECT_FILES: '0', CAPSULE_CODE_CACHE_DIR: join(WORK, 'cc-git') } };
if (BASELINE) variants.baseline = { ...base, CAPSULE_CODE_CACHE_DIR: join(WORK, 'cc-baseline') };
const hooksOf = (v) => (v === 'baseline' ? BASELINE : HOOKS);
const names = Object.keys(variants);
/** One cold run (bench/lib/measure.mjs); a hook that failed open fails the row. */
function time(args, input, env) {
  const t = timeCold(process.execPath, args, { input, env });
  if (/systemMessage/.test(t.stdout)) throw new Error(`${args} failed open: ${t.stdout}`);
  return { ...t, out: t.stdout };
}
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const rows = [];
for (const kind of ['SessionStart(clear)', 'Stop']) {
  const dirs = {};
  for (const v of Object.keys(variants)) { dirs[v] = join(WORK, `${kind.replace(/\W/g, '')}-${v}`); cpSync(fx.dir, dirs[v], { recursive: true }); }
  const tips = Object.fromEntries(Object.entries(dirs).map(([v, d]) => [v, git(d, 'rev-parse', 'refs/heads/capsules')]));
  const transcripts = Object.fromEntries(Object.keys(dirs).map((v) => [v, join(WORK, `t-${v}.jsonl`)]));
  for (const t of Object.values(transcripts)) writeFileSync(t, '');
  const s = Object.fromEntries([['floor', []], ...names.map((v) => [v, []])]);
  const load0 = loadavg()[0];
  for (let i = 0; i < RUNS + 2; i++) {
    const order = names.map((_, k) => names[(i + k) % names.length]);
    const f = time(['-e', '0'], '', base);
    for (const v of order) {
      const d = dirs[v];
      let file, input;
      if (kind === 'Stop') {
        const ts = new Date().toISOString();
        appendFileSync(transcripts[v], [{ type: 'user', uuid: `u${i}`, isSidechain: false, cwd: d, timestamp: ts, message: { role: 'user', content: `edit ${i}` } }, { type: 'assistant', uuid: `a${i}`, isSidechain: false, cwd: d, timestamp: ts, message: { role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'Write', input: { file_path: `${d}/src/f${i}.ts`, content: 'x' } }] } }, { type: 'user', uuid: `r${i}`, isSidechain: false, cwd: d, timestamp: ts, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'ok' }] } }].map((r) => JSON.stringify(r)).join('\n') + '\n');
        file = 'stop.js'; input = JSON.stringify({ session_id: `ab-${v}`, transcript_path: transcripts[v], cwd: d, hook_event_name: 'Stop', stop_hook_active: false });
      } else {
        git(d, 'update-ref', 'refs/heads/capsules', tips[v]);
        file = 'session-start.js'; input = JSON.stringify({ session_id: `ab-${v}`, transcript_path: transcripts[v], cwd: d, hook_event_name: 'SessionStart', source: 'clear' });
      }
      const h = time([join(hooksOf(v), file)], input, variants[v]);
      if (kind !== 'Stop' && !h.out.includes(fx.newestId)) throw new Error(`no resume: ${h.out.slice(0, 300)}`);
      if (i >= 2) s[v].push(h);
    }
    if (i >= 2) s.floor.push(f);
  }
  const m = (xs, k) => med(xs.map((x) => x[k]));
  const floor = [m(s.floor, 'ms'), m(s.floor, 'cpu')];
  const cell = (v) => `${v === 'git' ? 'git (default)' : 'CAPSULE_OBJECT_FILES=1'} ${m(s[v], 'ms').toFixed(1)} ms (${(m(s[v], 'ms') / floor[0]).toFixed(2)}×) / ${m(s[v], 'cpu').toFixed(0)} ms CPU (${(m(s[v], 'cpu') / floor[1]).toFixed(2)}×)`;
  console.log(`${kind}: node -e 0 ${floor[0].toFixed(1)} ms / ${floor[1].toFixed(0)} ms CPU; ${names.map(cell).join('; ')}; load ${load0.toFixed(1)}→${loadavg()[0].toFixed(1)}`);
}
