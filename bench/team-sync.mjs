// A team on one remote: AUTHORS clones of one bare remote, each running SESSIONS sessions of
// TURNS turns a day for DAYS days through the real built hooks (Stop after every turn, a /clear
// with its SessionEnd + SessionStart(clear) resume every CLEAR_EVERY turns), syncing with the real
// CLI the way the git hooks do (`sync --no-push` after the morning pull, `sync` on every push,
// every SYNC_EVERY turns). It reports what the remote received, what a plain clone downloads,
// loose objects per clone, sync and Stop times, lost capsules or status events, and resumes of
// another author's capsule.
//
//   npm run build && node bench/team-sync.mjs [--authors 5] [--sessions 2] [--turns 150] [--days 5]
//       [--sync-every 25] [--clear-every 50] [--dist dist] [--label NAME] [--json] [--keep]
//
// `--dist` runs another build (e.g. an older version's dist/ taken from git) for a before/after.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchArgs } from './lib/bench-args.mjs';
import { median } from './lib/measure.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = benchArgs(import.meta.url, {
  options: {
    authors: { type: 'string', default: '5' }, sessions: { type: 'string', default: '2' }, turns: { type: 'string', default: '150' },
    days: { type: 'string', default: '5' }, 'sync-every': { type: 'string', default: '25' }, 'clear-every': { type: 'string', default: '50' },
    dist: { type: 'string', default: 'dist' }, label: { type: 'string', default: 'current' }, json: { type: 'boolean' }, keep: { type: 'boolean' },
  },
});
const [AUTHORS, SESSIONS, TURNS, DAYS, SYNC_EVERY, CLEAR_EVERY] = ['authors', 'sessions', 'turns', 'days', 'sync-every', 'clear-every'].map((k) => Number(values[k]));
const DIST = resolve(ROOT, values.dist);
const CLI = join(DIST, 'git-capsule.js');
const HOOKS = join(DIST, 'hooks');
const WORK = join(ROOT, '.bench-tmp', `team-sync-${values.label}`);
rmSync(WORK, { recursive: true, force: true });
mkdirSync(join(WORK, 'home'), { recursive: true });
const ENV = { PATH: process.env.PATH, HOME: join(WORK, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(WORK, 'home', '.gitconfig'), TZ: 'UTC' };
const git = (cwd, args, input) => execFileSync('git', args, { cwd, env: ENV, input, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();

const remote = join(WORK, 'remote.git');
git(WORK, ['init', '-q', '--bare', '-b', 'main', remote]);
const seed = join(WORK, 'seed');
git(WORK, ['init', '-q', '-b', 'main', seed]);
writeFileSync(join(seed, 'README.md'), '# the project\n');
git(seed, ['add', '-A']);
git(seed, ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-qm', 'initial']);
git(seed, ['push', '-q', remote, 'main']);

const authors = Array.from({ length: AUTHORS }, (_, i) => {
  const name = `author${i + 1}`;
  const dir = join(WORK, name);
  git(WORK, ['clone', '-q', remote, dir]);
  git(dir, ['config', 'user.name', name]);
  git(dir, ['config', 'user.email', `${name}@example.com`]);
  return { name, dir, session: null, pid: 0, transcript: '', turn: 0 };
});

const owner = new Map(); // session id → author name
const seen = { docs: new Set(), events: new Set() }; // every capsule and status event any clone ever had
const stats = { stopMs: [], stopCpuMs: [], floorMs: [], floorCpuMs: [], syncs: [], syncFailures: [], attemptsMax: 0, resumes: 0, crossAuthor: 0, resumeFailures: 0, hookFailures: 0, looseKbMax: 0, perSyncMax: 0 };
let sessionCounter = 0;

// CPU time of each child (user + sys), through GNU time where there is one: on a loaded machine it moves far less than wall time.
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
let runs = 0;

/** Runs a process to the end (the authors work at the same time, so nothing here blocks the others). */
function run(cmd, args, opts) {
  const t0 = performance.now();
  const cpuFile = TIME ? join(WORK, `cpu-${(runs += 1)}`) : null;
  return new Promise((done) => {
    const [bin, argv] = cpuFile ? [TIME, ['-f', '%U %S', '-o', cpuFile, cmd, ...args]] : [cmd, args];
    const child = spawn(bin, argv, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('close', (status) => {
      const ms = performance.now() - t0;
      let cpuMs = null;
      if (cpuFile) {
        const [user, sys] = (existsSync(cpuFile) ? readFileSync(cpuFile, 'utf8') : '').trim().split('\n').pop().split(' ').map(Number);
        if (Number.isFinite(user) && Number.isFinite(sys)) cpuMs = (user + sys) * 1000;
        rmSync(cpuFile, { force: true });
      }
      done({ status, stdout, stderr, ms, cpuMs });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}
async function hook(a, file, payload, env = {}) {
  const r = await run(process.execPath, [join(HOOKS, file)], { cwd: a.dir, env: { ...ENV, CLAUDE_PID: String(a.pid), ...env }, input: JSON.stringify({ cwd: a.dir, transcript_path: a.transcript, ...payload }) });
  if (r.status !== 0 || /systemMessage/.test(r.stdout ?? '')) stats.hookFailures += 1;
  return r;
}
function cli(a, args) {
  return run(process.execPath, [CLI, ...args], { cwd: a.dir, env: ENV });
}
function uuid(n) {
  const hex = n.toString(16).padStart(12, '0');
  return `5e55a000-0000-4000-8000-${hex}`;
}

/** One turn of transcript, as Claude Code writes it: a prompt, an edit, now and then a failing test, a reply. */
function turnRecords(a) {
  const t = new Date().toISOString();
  const n = a.turn;
  const base = { isSidechain: false, cwd: a.dir, sessionId: a.session, timestamp: t, gitBranch: 'main' };
  const file = `${a.dir}/src/${a.name}/module${n % 23}.ts`;
  const records = [
    { ...base, type: 'user', uuid: `u${n}`, message: { role: 'user', content: `step ${n}: keep going on the ${a.name} feature` } },
    { ...base, type: 'assistant', uuid: `w${n}`, message: { id: `m${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `tw${n}`, name: 'Edit', input: { file_path: file, old_string: 'a', new_string: 'b' } }] } },
    { ...base, type: 'user', uuid: `wr${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tw${n}`, content: `The file ${file} has been updated.` }] } },
  ];
  if (n % 7 === 3) {
    records.push({ ...base, type: 'assistant', uuid: `b${n}`, message: { id: `mb${n}`, role: 'assistant', content: [{ type: 'tool_use', id: `tb${n}`, name: 'Bash', input: { command: `npm test -- module${n % 23}`, description: 'run the tests' } }] } });
    records.push({ ...base, type: 'user', uuid: `br${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tb${n}`, content: `Exit code 1\nmodule${n % 23} test failed`, is_error: true }] } });
  }
  records.push({ ...base, type: 'assistant', uuid: `d${n}`, message: { id: `md${n}`, role: 'assistant', content: [{ type: 'text', text: `done with step ${n}` }], usage: { input_tokens: 2000, cache_creation_input_tokens: 0, cache_read_input_tokens: 20000 + 300 * (n % 50), output_tokens: 300 } } });
  return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

async function startSession(a, source) {
  sessionCounter += 1;
  a.session = uuid(sessionCounter);
  owner.set(a.session, a.name);
  a.transcript = join(WORK, `${a.name}-${a.session}.jsonl`);
  writeFileSync(a.transcript, '');
  return await hook(a, 'session-start.js', { session_id: a.session, hook_event_name: 'SessionStart', source });
}

async function stop(a) {
  a.turn += 1;
  appendFileSync(a.transcript, turnRecords(a));
  const r = await hook(a, 'stop.js', { session_id: a.session, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: `done with step ${a.turn}` });
  stats.stopMs.push(r.ms);
  if (r.cpuMs !== null) stats.stopCpuMs.push(r.cpuMs);
}

async function clear(a) {
  await hook(a, 'session-end.js', { session_id: a.session, hook_event_name: 'SessionEnd', reason: 'clear' });
  const r = await startSession(a, 'clear');
  const text = (() => { try { return JSON.parse(r.stdout).hookSpecificOutput?.additionalContext ?? ''; } catch { return ''; } })();
  const id = /\(capsule ([0-9A-Z]{26})\)/.exec(text)?.[1];
  if (!id) { stats.resumeFailures += 1; return; }
  stats.resumes += 1;
  const doc = (await cli(a, ['show', id])).stdout;
  const writer = owner.get(/^session_id: "?([^"\n]+)"?$/m.exec(doc)?.[1] ?? '');
  if (writer !== a.name) stats.crossAuthor += 1;
}

async function endSession(a) {
  await hook(a, 'session-end.js', { session_id: a.session, hook_event_name: 'SessionEnd', reason: 'other' });
  // The work of the session is done: its capsule is resolved, as a person or the agent would.
  const state = join(a.dir, '.git', 'capsule', 'sessions', `${a.session}.json`);
  const id = existsSync(state) ? JSON.parse(readFileSync(state, 'utf8')).autosaveId : undefined;
  if (id) await cli(a, ['status', id, 'resolved', '--writer', a.name]);
}

async function sync(a, args = []) {
  const r = await cli(a, ['sync', '--json', ...args]);
  if (r.status !== 0) {
    // A push race lost five times in a row is reported, not fatal: the next sync carries it.
    stats.syncFailures.push(r.stderr.trim().split('\n').pop());
    return remoteRef;
  }
  const report = JSON.parse(r.stdout);
  stats.attemptsMax = Math.max(stats.attemptsMax, report.attempts ?? 1);
  const remoteRef = report.remoteRef ?? report.ref;
  let published = report.published;
  if (published === undefined) published = report.pushed ? Number(git(a.dir, ['rev-list', '--count', report.remoteTip.before ? `${report.remoteTip.before}..${report.remoteTip.after}` : report.remoteTip.after])) : 0;
  stats.perSyncMax = Math.max(stats.perSyncMax, published);
  stats.syncs.push({ action: report.action, ms: r.ms, cpuMs: r.cpuMs, published, push: !args.includes('--no-push') });
  record(a);
  return remoteRef;
}

/** What the clone holds now: every capsule and status event joins the set that must survive. */
function record(a) {
  const ref = git(a.dir, ['config', '--default', 'refs/heads/capsules', '--get', 'capsule.ref']);
  const out = spawnSync('git', ['ls-tree', '-r', '--name-only', ref], { cwd: a.dir, env: ENV, encoding: 'utf8', maxBuffer: 1 << 26 }).stdout ?? '';
  for (const p of out.split('\n')) {
    const doc = /\/([^/]+)\/capsule\.md$/.exec(p);
    const event = /\/([^/]+)\/status\/([^/]+)$/.exec(p);
    if (doc) seen.docs.add(doc[1]);
    if (event) seen.events.add(`${event[1]}/${event[2]}`);
  }
  const kb = Number(/^size: (\d+)/m.exec(git(a.dir, ['count-objects', '-v']))?.[1] ?? 0);
  stats.looseKbMax = Math.max(stats.looseKbMax, kb);
}

async function floor() {
  const r = await run(process.execPath, ['-e', '0'], { env: ENV });
  stats.floorMs.push(r.ms);
  if (r.cpuMs !== null) stats.floorCpuMs.push(r.cpuMs);
}

const started = performance.now();
const loads = [loadavg()[0]];
let remoteRef = 'refs/capsules/capsules';
for (let day = 0; day < DAYS; day += 1) {
  for (let s = 0; s < SESSIONS; s += 1) {
    await Promise.all(authors.map(async (a, i) => {
      a.pid = 40000 + i * 100 + day * 10 + s;
      a.turn = 0;
      await startSession(a, 'startup');
      remoteRef = await sync(a, ['--no-push']); // the morning pull's post-merge
    }));
    for (let t = 1; t <= TURNS; t += 1) {
      // Everyone works at once; each pushes (pre-push: sync) every SYNC_EVERY turns, not all at the same moment.
      await Promise.all([...authors.map(async (a, i) => {
        await stop(a);
        if (t % CLEAR_EVERY === 0 && t < TURNS) await clear(a);
        if ((t + i * Math.max(1, Math.floor(SYNC_EVERY / AUTHORS))) % SYNC_EVERY === 0) remoteRef = await sync(a);
      }), t % 10 === 0 ? floor() : Promise.resolve()]);
    }
    await Promise.all(authors.map(async (a) => {
      await endSession(a);
      remoteRef = await sync(a);
    }));
  }
  loads.push(loadavg()[0]);
  if (!values.json) process.stderr.write(`day ${day + 1}/${DAYS} done, ${Math.round((performance.now() - started) / 1000)} s, load ${loadavg()[0].toFixed(1)}\n`);
  else process.stderr.write(`day ${day + 1}/${DAYS} done, ${Math.round((performance.now() - started) / 1000)} s, load ${loadavg()[0].toFixed(1)}\n`);
}
// Everyone syncs twice more, one after the other: every clone ends with everything.
for (let round = 0; round < 2; round += 1) for (const a of authors) remoteRef = await sync(a);

// What must be everywhere: every capsule and status event any clone ever held.
let lost = 0;
for (const a of authors) {
  const ref = git(a.dir, ['config', '--default', 'refs/heads/capsules', '--get', 'capsule.ref']);
  const out = git(a.dir, ['ls-tree', '-r', '--name-only', ref]);
  const docs = new Set([...out.matchAll(/\/([^/]+)\/capsule\.md$/gm)].map((m) => m[1]));
  const events = new Set([...out.matchAll(/\/([^/]+)\/status\/([^/\n]+)$/gm)].map((m) => `${m[1]}/${m[2]}`));
  for (const d of seen.docs) if (!docs.has(d)) lost += 1;
  for (const e of seen.events) if (!events.has(e)) lost += 1;
}

function packedBytes(dir, refs) {
  const objects = spawnSync('git', ['rev-list', '--objects', ...refs], { cwd: dir, env: ENV, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
  const ids = objects.split('\n').filter(Boolean).map((l) => l.split(' ')[0]).join('\n');
  const pack = spawnSync('git', ['pack-objects', '--stdout', '-q', '--window=10', '--depth=50'], { cwd: dir, env: ENV, input: `${ids}\n`, maxBuffer: 1 << 30 });
  return { bytes: pack.stdout.length, objects: ids.split('\n').length };
}
const published = packedBytes(remote, [remoteRef]);
const commits = Number(git(remote, ['rev-list', '--count', remoteRef]));
const fresh = join(WORK, 'fresh-clone');
git(WORK, ['clone', '-q', '--no-local', remote, fresh]);
const memoryObjects = git(remote, ['rev-list', '--objects', remoteRef]).split('\n').map((l) => l.split(' ')[0]);
const check = spawnSync('git', ['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize:disk)'], { cwd: fresh, env: ENV, input: `${memoryObjects.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout.split('\n').filter((l) => l && !l.endsWith('missing'));
// Objects a memory tree shares with the project (none here: the project has one README) would count too.
const cloneBytes = check.reduce((n, l) => n + Number(l.split(' ')[2]), 0);
const localCommits = Number(git(authors[0].dir, ['rev-list', '--count', '--all']));
const looseKbEnd = Math.max(...authors.map((a) => Number(/^size: (\d+)/m.exec(git(a.dir, ['count-objects', '-v']))?.[1] ?? 0)));

const byAction = (action, push, key = 'ms') => stats.syncs.filter((s) => s.action === action && (push === undefined || s.push === push) && s[key] !== null).map((s) => s[key]);
const authorDays = AUTHORS * DAYS;
const result = {
  label: values.label, dist: values.dist, authors: AUTHORS, sessions: SESSIONS, turns: TURNS, days: DAYS, syncEvery: SYNC_EVERY, clearEvery: CLEAR_EVERY,
  cores: cpus().length, node: process.version, git: git(WORK, ['--version']), loadavg: { min: Math.min(...loads), max: Math.max(...loads) },
  wallSeconds: Math.round((performance.now() - started) / 1000),
  remoteRef, publishedBytes: published.bytes, publishedObjects: published.objects, publishedCommits: commits,
  publishedKbPerAuthorDay: published.bytes / 1024 / authorDays,
  maxCommitsPerSync: stats.perSyncMax, syncs: stats.syncs.length,
  freshCloneMemoryObjects: check.length, freshCloneMemoryBytes: cloneBytes,
  looseKbMaxPerClone: stats.looseKbMax, looseKbEndMaxPerClone: looseKbEnd,
  syncMs: {
    merge: median(byAction('merge', true)), fastForward: median(byAction('fast-forward')), push: median(byAction('push', true)),
    mergeNoPush: median(byAction('merge', false)), counts: Object.fromEntries(['merge', 'fast-forward', 'push', 'up-to-date'].map((k) => [k, byAction(k).length])),
  },
  syncCpuMs: TIME ? { merge: median(byAction('merge', true, 'cpuMs')), fastForward: median(byAction('fast-forward', undefined, 'cpuMs')), push: median(byAction('push', true, 'cpuMs')) } : null,
  stopMs: median(stats.stopMs), stops: stats.stopMs.length, floorMs: median(stats.floorMs),
  stopCpuMs: TIME ? median(stats.stopCpuMs) : null, floorCpuMs: TIME ? median(stats.floorCpuMs) : null,
  capsulesSeen: seen.docs.size, eventsSeen: seen.events.size, lost, resumes: stats.resumes, crossAuthorResumes: stats.crossAuthor,
  resumeFailures: stats.resumeFailures, hookFailures: stats.hookFailures, syncFailures: stats.syncFailures, attemptsMax: stats.attemptsMax, localCommitsAuthor1: localCommits,
};
if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
  console.log([
    `team-sync (${result.label}, ${values.dist}): ${AUTHORS} authors × ${SESSIONS} sessions × ${TURNS} turns × ${DAYS} days, sync every ${SYNC_EVERY} turns, /clear every ${CLEAR_EVERY}; ${result.cores} cores, ${result.node}, ${result.git}, load ${result.loadavg.min.toFixed(1)}–${result.loadavg.max.toFixed(1)}, ${result.wallSeconds} s`,
    `published history on the remote (${remoteRef}): ${kb(published.bytes)} packed, ${published.objects} objects, ${commits} commits; ${result.publishedKbPerAuthorDay.toFixed(1)} KB per author-day`,
    `commits per author per sync: at most ${stats.perSyncMax} (${stats.syncs.length} syncs: ${JSON.stringify(result.syncMs.counts)}; at most ${stats.attemptsMax} attempts; ${stats.syncFailures.length} failed: ${JSON.stringify(stats.syncFailures.slice(0, 3))})`,
    `a fresh git clone of the project: ${check.length} memory objects, ${kb(cloneBytes)}`,
    `loose objects per clone: at most ${stats.looseKbMax} KB during the run, ${looseKbEnd} KB at the end`,
    `sync median: merge ${result.syncMs.merge?.toFixed(0)} ms, fast-forward ${result.syncMs.fastForward?.toFixed(0)} ms, push ${result.syncMs.push?.toFixed(0)} ms, merge --no-push ${result.syncMs.mergeNoPush?.toFixed(0)} ms`,
    ...(result.syncCpuMs ? [`sync median CPU (user+sys): merge ${result.syncCpuMs.merge?.toFixed(0)} ms, fast-forward ${result.syncCpuMs.fastForward?.toFixed(0)} ms, push ${result.syncCpuMs.push?.toFixed(0)} ms`] : []),
    `Stop median ${result.stopMs.toFixed(0)} ms over ${result.stops} turns (node -e 0: ${result.floorMs.toFixed(0)} ms)${result.stopCpuMs ? `; CPU ${result.stopCpuMs.toFixed(0)} ms (node -e 0: ${result.floorCpuMs.toFixed(0)} ms)` : ''}`,
    `capsules ${seen.docs.size}, status events ${seen.events.size}; lost ${lost}; resumes ${stats.resumes} (cross-author ${stats.crossAuthor}, none found ${stats.resumeFailures}); hook failures ${stats.hookFailures}`,
  ].join('\n'));
}
if (!values.keep) rmSync(WORK, { recursive: true, force: true });
