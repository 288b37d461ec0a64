// SessionStart(clear) on a branch shared by a team: does scoping the resume to the cleared
// session's lineage keep its cost flat? Cold `node` runs of the built session-start hook,
// interleaved with `node -e 0` (and, with --baseline, with another checkout's built hook on its
// own fixture), medians and ratios, the 1-minute load average beside them.
//
//   node bench/lineage-resume.mjs [--runs 15] [--capsules 10000] [--authors 20] [--baseline /path/to/other/checkout] [--json]
//
// Fixture (cached under .bench-tmp/lineage): N capsules, 2 % active, the rest resumed or
// resolved, one capsule an hour, written with one fast-import stream in the store's layout and
// indexed by the built CLI's `reindex`. `--authors` of them take turns writing (each author's
// capsules stamped with its email, its own machine id and worktree, as a sync would bring them);
// author 0 is this clone's own writer, and the newest active capsule of author 0's session
// `bench-prev` is what a resume after `bench-prev`'s /clear must select. Three other authors'
// active capsules are newer than it (a teammate synced a minute ago). Before every timed run the
// branch is reset to the fixture tip and a fresh hand-over record from `bench-prev` is left
// under this bench's own pid as CLAUDE_PID (outside the timing).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs } from './lib/bench-args.mjs';
import { keepObjectsLow } from './lib/housekeeping-marks.mjs';
import { median, timeCold } from './lib/measure.mjs';
import { makeProjectRepo } from './lib/project-repo.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = benchArgs(import.meta.url, { options: { runs: { type: 'string', default: '15' }, capsules: { type: 'string', default: '10000' }, authors: { type: 'string', default: '20' }, baseline: { type: 'string' }, json: { type: 'boolean' } } });
const RUNS = Number(values.runs);
const N = Number(values.capsules);
const AUTHORS = Number(values.authors);
const WORK = join(ROOT, '.bench-tmp', 'lineage');
const env = { PATH: process.env.PATH, HOME: WORK, TZ: 'UTC' };
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function ulid(ms, n) {
  let time = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let rand = '';
  for (let i = 0, r = n + 1; i < 16; i++, r = Math.floor(r / 32)) rand = CROCKFORD[r % 32] + rand;
  return time + rand;
}

/**
 * A repository and its memory branch for `cli` (the checkout whose format is measured). With
 * `authors` > 0 every capsule carries who and where wrote it; 0 writes them as today's format
 * did (no identity), for the baseline checkout.
 */
function fixture(name, cli, authors) {
  const dir = join(WORK, name);
  if (existsSync(join(dir, '.ready'))) return JSON.parse(readFileSync(join(dir, '.ready'), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  makeProjectRepo(dir, env, { name: 'Author 0', email: 'author0@example.com' });
  execFileSync(process.execPath, [cli, 'init'], { cwd: dir, env, stdio: 'ignore' });
  // This clone's own identity, as its store stamps it: write one capsule and read it back.
  let me = {};
  if (authors > 0) {
    writeFileSync(join(WORK, 'probe.md'), `---\nid: ${ulid(Date.UTC(2025, 0, 1), 999999)}\nobjective: probe\nwaiting_on: nothing\nnext_valid_action: none\nstatus: resolved\ncreated_at: 2025-01-01T00:00:00Z\n---\n`);
    execFileSync(process.execPath, [cli, 'write', join(WORK, 'probe.md')], { cwd: dir, env, stdio: 'ignore' });
    const probe = ulid(Date.UTC(2025, 0, 1), 999999);
    const path = git(dir, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules', 'capsules/').split('\n').find((p) => p.endsWith(`/${probe}/capsule.md`));
    const shown = git(dir, 'show', `refs/heads/capsules:${path}`);
    me = Object.fromEntries(['author', 'machine', 'worktree'].map((k) => [k, new RegExp(`^${k}: "?([^"\\n]+)"?$`, 'm').exec(shown)[1]]));
  }
  // Layout 3 shards by one <yyyy-mm-dd> folder of the UTC day of the id's time, layout 2 by
  // <yyyy>/<mm>/<dd>, layout 1 by the month: the checkout's own.
  const format = Number(/^format: (\d+)$/m.exec(git(dir, 'show', 'refs/heads/capsules:FORMAT'))?.[1] ?? 1);
  const base = Date.now() - N * 3_600_000;
  let stream = `commit refs/heads/capsules\ncommitter bench <bench@example.invalid> ${Math.floor(Date.now() / 1000)} +0000\ndata 11\nbench fill\nfrom refs/heads/capsules^0\n`;
  let lineageId = '';
  // The newest active capsules: author 0's `bench-prev` (third newest), two teammates' newer ones.
  const newestActive = [N - 1, N - 2, N - 3, N - 4];
  for (let i = 0; i < N; i++) {
    const at = new Date(base + i * 3_600_000);
    const id = ulid(at.getTime(), i);
    const [yyyy, mm, dd] = [String(at.getUTCFullYear()), String(at.getUTCMonth() + 1).padStart(2, '0'), String(at.getUTCDate()).padStart(2, '0')];
    const month = format >= 3 ? `${yyyy}-${mm}-${dd}` : format === 2 ? `${yyyy}/${mm}/${dd}` : `${yyyy}/${mm}`;
    const author = i === N - 4 ? 0 : authors > 0 ? (i % authors) : 0;
    const who = authors === 0 ? {} : author === 0 ? me : { author: `author${author}@example.com`, machine: `m-${ulid(0, author)}`, worktree: `w-${String(author).padStart(16, '0')}` };
    const session = i === N - 4 ? 'bench-prev' : `bench-session-${i % 97}`;
    if (i === N - 4) lineageId = id;
    const fields = { id, objective: `bench objective ${i}: keep the widget parser fast`, waiting_on: 'nothing', next_valid_action: `run the widget tests and fix the first failure ${i}`, status: 'active', trigger: i % 3 === 0 ? 'manual' : 'autosave', created_at: `${at.toISOString().slice(0, 19)}Z`, session_id: session, repo_branch: 'main', ...who };
    const doc = `---\n${Object.entries(fields).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n')}\n---\n\n<!-- capsule:done -->\n## Done [REFERENCE ONLY]\n- wrote part ${i}\n`;
    stream += `M 100644 inline capsules/${month}/${id}/capsule.md\ndata ${Buffer.byteLength(doc)}\n${doc}\n`;
    if (!newestActive.includes(i) && (N - 1 - i) % 50 !== 0) {
      const status = i % 2 === 0 ? 'resolved' : 'resumed';
      const spent = new Date(at.getTime() + 1_800_000);
      const event = `status: ${status}\nwriter: fixture\nat: ${spent.toISOString()}\n`;
      stream += `M 100644 inline capsules/${month}/${id}/status/${spent.toISOString().replace(/[-:.]/g, '')}-fixture-${status}\ndata ${Buffer.byteLength(event)}\n${event}\n`;
    }
  }
  stream += 'done\n';
  execFileSync('git', ['fast-import', '--quiet', '--done'], { cwd: dir, env, input: stream, maxBuffer: 1 << 28 });
  execFileSync(process.execPath, [cli, 'reindex'], { cwd: dir, env, stdio: 'ignore' });
  git(dir, 'gc', '-q');
  const info = { dir, lineageId, tip: git(dir, 'rev-parse', 'refs/heads/capsules') };
  writeFileSync(join(dir, '.ready'), JSON.stringify(info));
  return info;
}

/** One cold run (bench/lib/measure.mjs), in this bench's environment plus `extraEnv`. */
const time = (cmd, args, input, extraEnv = {}) => timeCold(cmd, args, { input, env: { ...env, ...extraEnv } });

/** Leaves the hand-over `bench-prev` → the next session under CLAUDE_PID = this process, as SessionEnd(clear) does. */
function handOver(dir) {
  const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  const record = { format: 1, host: 'claude', key: String(process.pid), pid: process.pid, processStart: start, updatedAt: new Date().toISOString(), chain: [], session: 'bench-prev', handOver: { from: 'bench-prev', reason: 'clear', at: new Date().toISOString() } };
  mkdirSync(join(dir, '.git', 'capsule', 'lineage'), { recursive: true });
  writeFileSync(join(dir, '.git', 'capsule', 'lineage', `claude-${process.pid}.json`), JSON.stringify(record));
}

/**
 * Brings a fixture back to the state it was built in: every timed run commits a consume, whose
 * objects stay loose (and past the hooks' loose-object mark start a detached `git maintenance`
 * that leaves packs behind), so a fixture reused by earlier passes would make its row read more
 * objects than the baseline's. One `gc` when anything was left: one pack, nothing loose.
 */
function settle({ dir, tip }) {
  git(dir, 'update-ref', 'refs/heads/capsules', tip);
  // The hand-over records of earlier passes' bench processes (each pass is a new pid), which SessionEnd would have pruned.
  rmSync(join(dir, '.git', 'capsule', 'lineage'), { recursive: true, force: true });
  const counts = Object.fromEntries(git(dir, 'count-objects', '-v').split('\n').map((l) => l.split(': ')));
  if (Number(counts.count) === 0 && Number(counts.packs) <= 1) return;
  git(dir, 'reflog', 'expire', '--all', '--expire=now');
  git(dir, 'gc', '-q', '--prune=now');
}

const rows = [
  { name: `SessionStart(clear), ${AUTHORS} authors, lineage`, hook: join(ROOT, 'dist', 'hooks', 'session-start.js'), fx: () => fixture(`team-${N}-${AUTHORS}`, join(ROOT, 'dist', 'git-capsule.js'), AUTHORS), lineage: true },
  { name: 'SessionStart(clear), 1 author, no lineage', hook: join(ROOT, 'dist', 'hooks', 'session-start.js'), fx: () => fixture(`solo-${N}`, join(ROOT, 'dist', 'git-capsule.js'), 1), lineage: false },
  ...(values.baseline ? [{ name: `baseline ${values.baseline}: SessionStart(clear), 1 author`, hook: join(resolve(values.baseline), 'dist', 'hooks', 'session-start.js'), fx: () => fixture(`baseline-${N}`, join(resolve(values.baseline), 'dist', 'git-capsule.js'), 0), lineage: false }] : []),
];
mkdirSync(WORK, { recursive: true });
for (const row of rows) {
  row.fixture = row.fx();
  settle(row.fixture);
}
const samples = new Map(rows.map((r) => [r.name, []]));
const cpuSamples = new Map(rows.map((r) => [r.name, []]));
const floor = [];
const floorCpu = [];
const loads = [];
for (let i = 0; i < RUNS + 2; i++) {
  for (const row of rows) {
    const { dir, tip, lineageId } = row.fixture;
    git(dir, 'update-ref', 'refs/heads/capsules', tip);
    // Each consume leaves a small pack: what a write would start past the marks runs here, untimed.
    keepObjectsLow(dir, git);
    rmSync(join(dir, '.git', 'capsule', 'sessions'), { recursive: true, force: true });
    if (row.lineage) handOver(dir);
    const f = time(process.execPath, ['-e', '0'], '');
    const input = JSON.stringify({ session_id: 'bench-next', transcript_path: join(WORK, 'none.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'clear' });
    // Each build keeps its own code cache: a build that writes its cache drops the other hashes of
    // the same bundle, so a shared folder would make the row after the baseline compile from scratch.
    const cache = { CAPSULE_CODE_CACHE_DIR: join(WORK, row.name.startsWith('baseline') ? 'cc-baseline' : 'cc-this') };
    const h = time(process.execPath, [row.hook], input, row.lineage ? { ...cache, CLAUDE_PID: String(process.pid) } : cache);
    if (/systemMessage/.test(h.stdout)) throw new Error(`${row.name} failed open: ${h.stdout}`);
    if (row.lineage && !h.stdout.includes(lineageId)) throw new Error(`${row.name} did not resume the lineage's capsule ${lineageId}`);
    if (!/CAPSULE DATA \(every value/.test(h.stdout)) throw new Error(`${row.name} loaded no capsule`);
    if (i >= 2) {
      floor.push(f.ms);
      floorCpu.push(f.cpu);
      samples.get(row.name).push(h.ms);
      cpuSamples.get(row.name).push(h.cpu);
      loads.push(loadavg()[0]);
    }
  }
}
const floorMs = median(floor);
const floorCpuMs = median(floorCpu);
const out = rows.map((r) => ({ name: r.name, ms: median(samples.get(r.name)), ratio: median(samples.get(r.name)) / floorMs, cpu: median(cpuSamples.get(r.name)), cpuRatio: median(cpuSamples.get(r.name)) / floorCpuMs }));
const base = out.find((r) => r.name.startsWith('baseline'));
if (values.json) console.log(JSON.stringify({ runs: RUNS, capsules: N, authors: AUTHORS, floorMs, floorCpuMs, load: [Math.min(...loads), Math.max(...loads)], rows: out }, null, 2));
else {
  console.log(`SessionStart(clear), ${N.toLocaleString('en-US')} capsules (2 % active), medians of ${RUNS} cold runs interleaved with node -e 0 (${floorMs.toFixed(1)} ms wall, ${floorCpuMs.toFixed(0)} ms CPU), ${cpus().length} cores, load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}:`);
  const vs = (r, key) => (base && r !== base ? `, ${((r[key] / base[key] - 1) * 100).toFixed(1)} % vs baseline` : '');
  for (const r of out) console.log(`  ${r.name}: ${r.ms.toFixed(1)} ms wall, ${r.ratio.toFixed(2)}× node -e 0${vs(r, 'ms')}; ${r.cpu.toFixed(0)} ms CPU (incl. git), ${r.cpuRatio.toFixed(2)}×${vs(r, 'cpu')}`);
}
