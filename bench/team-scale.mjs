// A clone's cost against the size of its team (issue 34): the same work per author at 5 and at
// 20 authors, each clone of one bare remote whose memory already holds a seeded year (a publish
// commit per author-day, two capsules each, finished, retired after 30 days, tombstones forgotten
// after 90). Each author then works DAYS simulated days of SESSIONS sessions of TURNS autosaves
// (the store write a Stop makes), syncing every SYNC_EVERY turns and at each session's end, in
// turn, so nearly every sync merges what others pushed. Prints per team size: each clone's disk
// growth per day (its object store after the roll-up git-capsule's housekeeping runs, median
// and max over clones; and its whole .git, so a store kept beside the object store is counted
// too), what that day is made of (the clone's own per-turn history, which only it holds, and the
// team's published line, every publish of which its local branch reaches), the published bytes
// per author-day, and the sync medians (merge, at the year's size). Store and sync run in this process (lib/ bundled): the times are git's and ours,
// not node's start.
//
// --holdings also measures, on the first clone, two other ways a clone could hold its team
// (docs/sync.md, "What a clone holds of its team"): a bare repository holding only the remote's
// tip (fetched --depth=1 at each of the clone's publishes, then repacked and pruned), and the
// union trees at the clone's own publishes without the team's line as their ancestors.
//
//   npm run bench:team, or node bench/team-scale.mjs [--authors 5,20] [--sessions 2] [--turns 10] [--days 1] [--sync-every 10] [--seed-days 365] [--holdings] [--json]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchArgs } from './lib/bench-args.mjs';
import { loadTs } from './lib/load-ts.mjs';
import { median } from './lib/measure.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = benchArgs(import.meta.url, {
  options: {
    authors: { type: 'string', default: '5,20' }, sessions: { type: 'string', default: '2' }, turns: { type: 'string', default: '10' },
    days: { type: 'string', default: '1' }, 'sync-every': { type: 'string', default: '10' }, 'seed-days': { type: 'string', default: '365' },
    json: { type: 'boolean' }, holdings: { type: 'boolean' }, keep: { type: 'boolean' }, label: { type: 'string', default: 'run' },
  },
});
const [SESSIONS, TURNS, DAYS, SYNC_EVERY, SEED_DAYS] = ['sessions', 'turns', 'days', 'sync-every', 'seed-days'].map((k) => Number(values[k]));
const TEAMS = values.authors.split(',').map(Number);
const lib = await loadTs('bench/lib/team-store.ts');
const DAY_MS = 86_400_000;
// The simulated days start today (UTC midnight); the seeded year ends the day before.
const START = Math.floor(Date.now() / DAY_MS) * DAY_MS;

function gitIn(env) {
  return (cwd, args, input) => execFileSync('git', args, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
}

/**
 * CPU milliseconds this process and the children it has waited for have used (user + system), and the two apart:
 * every git process a sync runs is waited for, so a sync's difference is its CPU, which a loaded
 * machine moves far less than wall time. Linux only (/proc); null elsewhere.
 */
function cpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // utime + stime of this process (ours: node, the merge, and the fork of every git it starts), cutime + cstime of the gits it waited for.
    const ours = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    const git = ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
    return { total: ours + git, ours, git };
  } catch {
    return null;
  }
}

/** Bytes of every file under a directory. */
function diskBytes(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? diskBytes(p) : statSync(p).size;
  }
  return total;
}

/**
 * Bytes on disk (packed as they are, deltas included) of the objects `revs` reach, for
 * `git rev-list --objects`: what a part of a clone's history costs it.
 */
function objectBytes(git, cwd, revs) {
  const names = git(cwd, ['rev-list', '--objects', ...revs]).split('\n').map((l) => l.split(' ')[0]).filter(Boolean);
  if (names.length === 0) return 0;
  return git(cwd, ['cat-file', '--batch-check=%(objectsize:disk)'], `${names.join('\n')}\n`).split('\n').reduce((sum, v) => sum + Number(v), 0);
}

/**
 * The other holdings, measured on one clone after its days: a tip-only repository's size after
 * the seeded year, what its fetches add before pruning and what stays after (per day), and the
 * union trees at the clone's own publishes that the seeded tip does not hold (per day).
 */
function measureHoldings(git, work, remote, clone, email, seedTip) {
  const tip = git(clone, ['rev-parse', 'refs/capsule-remotes/origin/capsules/capsules']);
  const publishes = git(clone, ['log', '--first-parent', '--format=%H %ce', tip, `^${seedTip}`]).split('\n').filter((l) => l.endsWith(` ${email}`)).map((l) => l.split(' ')[0]).reverse();
  const side = join(work, 'tip-only.git');
  git(work, ['init', '-q', '--bare', side]);
  const fetchTip = (commit) => {
    git(remote, ['update-ref', 'refs/bench/tip', commit]);
    git(side, ['fetch', '-q', '--depth=1', remote, '+refs/bench/tip:refs/team']);
  };
  const prune = () => {
    git(side, ['reflog', 'expire', '--expire=now', '--all']);
    git(side, ['repack', '-a', '-d', '-q']);
    git(side, ['prune', '--expire=now']);
    return diskBytes(join(side, 'objects'));
  };
  fetchTip(seedTip);
  const seeded = prune();
  for (const commit of [...publishes, tip]) fetchTip(commit);
  const fetched = diskBytes(join(side, 'objects'));
  const pruned = prune();
  git(remote, ['update-ref', '-d', 'refs/bench/tip']);
  const objectsOf = (commit) => git(clone, ['ls-tree', '-r', '-t', commit]).split('\n').map((l) => l.split(/\s+/)[2]).filter(Boolean);
  const seededObjects = new Set(objectsOf(seedTip));
  const union = new Set(publishes.flatMap((c) => [git(clone, ['rev-parse', `${c}^{tree}`]), ...objectsOf(c)]).filter((o) => !seededObjects.has(o)));
  const unionBytes = union.size === 0 ? 0 : git(clone, ['cat-file', '--batch-check=%(objectsize:disk)'], `${[...union].join('\n')}\n`).split('\n').reduce((sum, v) => sum + Number(v), 0);
  return { tipOnlyKiB: seeded / 1024, tipOnlyFetchedPerDayKiB: (fetched - seeded) / 1024 / DAYS, tipOnlyPrunedPerDayKiB: (pruned - seeded) / 1024 / DAYS, unionTreesPerDayKiB: unionBytes / 1024 / DAYS, publishes: publishes.length };
}

/** An autosave as a Stop writes one: the objective of the turn, what was done so far, the files touched. */
function autosave(id, createdAt, author, session, turn) {
  const sections = lib.emptySections();
  sections.done = Array.from({ length: Math.min(turn, 8) }, (_, k) => `step ${turn - k}: edited src/${author}/module${(turn - k) % 23}.ts and ran its tests`);
  sections.files = Array.from({ length: Math.min(turn, 6) }, (_, k) => `src/${author}/module${(turn - k) % 23}.ts`);
  if (turn % 7 === 3) sections.errors = [`npm test -- module${turn % 23}: exit 1, module${turn % 23} test failed`];
  return lib.renderCapsule({
    frontmatter: { id, objective: `step ${turn}: keep going on the ${author} feature`, waiting_on: 'nothing', next_valid_action: `Run the tests after step ${turn}`, status: 'active', trigger: 'autosave', created_at: createdAt, session_id: session, tags: ['autosave'] },
    sections, notes: '',
  });
}

/** A year of published history in one fast-import stream onto the memory root of `dir`, then indexed and pushed as it is. */
async function seedYear(dir, env, remote, authors) {
  const git = gitIn(env);
  const store = await lib.openStore({ cwd: dir, env });
  const { root } = await store.init();
  const data = (text) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const parts = [];
  const byDay = [];
  let mark = 0;
  for (let d = SEED_DAYS; d >= 1; d -= 1) {
    const dayMs = START - d * DAY_MS;
    const made = [];
    for (let a = 0; a < authors; a += 1) {
      const at = new Date(dayMs + 9 * 3_600_000 + a * 60_000);
      const files = [];
      if (mark === 0) files.push(`M 100644 inline FORMAT\n${data(lib.FORMAT_TEXT)}`);
      if (a === 0) {
        // The day's retirement: capsules finished 31 days ago leave the tip for a tombstone; tombstones of 91 days ago are forgotten.
        for (const id of byDay[byDay.length - 31] ?? []) files.push(`D ${lib.capsuleDir(id)}\n`, `M 100644 inline ${lib.retiredPath(id)}\n${data(`retired: ${new Date(dayMs).toISOString().slice(0, 10)}\n`)}`);
        for (const id of byDay[byDay.length - 91] ?? []) files.push(`D ${lib.retiredPath(id)}\n`);
      }
      for (let k = 0; k < 2; k += 1) {
        const id = lib.newCapsuleId(new Date(at.getTime() + k * 1000), (n) => Buffer.from(`${String(a).padStart(3, '0')}${k}${d}`.padEnd(n, 'x').slice(0, n)));
        made.push(id);
        const doc = autosave(id, new Date(at.getTime() + k * 1000).toISOString(), `author${a}`, `5e55a000-0000-4000-8000-${String(d * 100 + a).padStart(12, '0')}`, 10).replace(/^---\n/, `---\n`).replace(/\n---\n/, `\nauthor: author${a}@example.com\nmachine: m-${a}\nworktree: w-${a}\n---\n`);
        const ended = new Date(at.getTime() + 8 * 3_600_000);
        files.push(`M 100644 inline ${lib.capsulePath(id)}\n${data(doc)}`, `M 100644 inline ${lib.capsuleDir(id)}/status/${lib.eventName({ now: ended, writer: `author${a}`, status: 'resolved' })}\n${data(lib.eventText({ now: ended, writer: `author${a}`, status: 'resolved' }))}`);
      }
      mark += 1;
      const secs = Math.floor(at.getTime() / 1000) + 8 * 3600;
      parts.push(`commit refs/heads/capsules\nmark :${mark}\ncommitter author${a} <author${a}@example.com> ${secs} +0000\n${data(`publish: 2 capsules, 2 status events\n\nCapsule-Op: publish\n`)}from ${mark === 1 ? root : `:${mark - 1}`}\n${files.join('')}\n`);
    }
    byDay.push(made);
  }
  git(dir, ['fast-import', '--quiet', '--force', '--done'], `${parts.join('')}done\n`);
  await store.rebuildIndex({ now: new Date(START - 1000) });
  await store.close();
  git(dir, ['push', '-q', remote, 'refs/heads/capsules:refs/capsules/capsules']);
  return { commits: mark, atTip: Number(git(dir, ['ls-tree', '-r', '--name-only', 'refs/heads/capsules', 'capsules']).split('\n').filter((p) => p.endsWith('capsule.md')).length) };
}

async function runTeam(authorCount) {
  const work = join(ROOT, '.bench-tmp', `team-scale-${values.label}-${authorCount}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'home'), { recursive: true });
  const env = { PATH: process.env.PATH, HOME: join(work, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(work, 'home', '.gitconfig'), TZ: 'UTC', CAPSULE_STATE_DIR: join(work, 'state') };
  const git = gitIn(env);
  const remote = join(work, 'remote.git');
  git(work, ['init', '-q', '--bare', '-b', 'main', remote]);
  const seedDir = join(work, 'seed');
  git(work, ['init', '-q', '-b', 'main', seedDir]);
  git(seedDir, ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '--allow-empty', '-m', 'initial']);
  git(seedDir, ['push', '-q', remote, 'main']);
  const t0 = performance.now();
  const seeded = await seedYear(seedDir, { ...env, GIT_COMMITTER_EMAIL: 'seed@example.com' }, remote, authorCount);
  const seedTip = git(remote, ['rev-parse', 'refs/capsules/capsules']);
  const authors = [];
  for (let i = 0; i < authorCount; i += 1) {
    const dir = join(work, `author${i}`);
    git(work, ['clone', '-q', remote, dir]);
    git(dir, ['config', 'user.name', `Author ${i}`]);
    git(dir, ['config', 'user.email', `author${i}@example.com`]);
    // Each clone its own runtime state (machine id, seal key), as on its own machine.
    const aEnv = { ...env, CAPSULE_STATE_DIR: join(work, `state-${i}`) };
    await lib.syncMemory({ cwd: dir, env: aEnv, push: false, now: () => new Date(START) });
    git(dir, ['repack', '-d', '-l', '-q', '--geometric=2']);
    authors.push({ i, dir, env: aEnv, disk: [diskBytes(join(dir, '.git', 'objects'))], gitDisk: [diskBytes(join(dir, '.git'))] });
  }
  const syncs = [];
  const written = new Set();
  async function sync(a, now) {
    const [t, c] = [performance.now(), cpuMs()];
    const r = await lib.syncMemory({ cwd: a.dir, env: a.env, now: () => now });
    const cpu = cpuMs();
    syncs.push({ action: r.action, ms: performance.now() - t, cpu: c === null || cpu === null ? null : cpu.total - c.total, ours: c === null || cpu === null ? null : cpu.ours - c.ours, gits: c === null || cpu === null ? null : cpu.git - c.git, attempts: r.attempts });
  }
  for (let day = 0; day < DAYS; day += 1) {
    for (let s = 0; s < SESSIONS; s += 1) {
      const sessionStart = START + day * DAY_MS + (9 + s * 4) * 3_600_000;
      for (const a of authors) {
        const at = new Date(sessionStart + a.i * 1000);
        a.capsule = lib.newCapsuleId(at);
        a.createdAt = at.toISOString();
        a.session = `5e55a000-0000-4000-8000-${String(day * 1000 + s * 100 + a.i).padStart(12, '0')}`;
        a.store = await lib.openStore({ cwd: a.dir, env: a.env });
        written.add(a.capsule);
      }
      for (let turn = 1; turn <= TURNS; turn += 1) {
        for (const a of authors) {
          const now = new Date(sessionStart + turn * 60_000 + a.i * 1000);
          await a.store.writeCapsule(autosave(a.capsule, a.createdAt, `author${a.i}`, a.session, turn), { now, replace: true });
          if ((turn + a.i) % SYNC_EVERY === 0) await sync(a, now);
        }
      }
      for (const a of authors) {
        const now = new Date(sessionStart + (TURNS + 1) * 60_000);
        await a.store.setStatus(a.capsule, 'resolved', { writer: `author${a.i}`, now });
        await a.store.close();
        await sync(a, now);
      }
    }
    for (const a of authors) {
      // What git-capsule's housekeeping rolls up past 16 packs, run now so every clone is measured the same way.
      git(a.dir, ['repack', '-d', '-l', '-q', '--geometric=2']);
      a.disk.push(diskBytes(join(a.dir, '.git', 'objects')));
      a.gitDisk.push(diskBytes(join(a.dir, '.git')));
    }
  }
  for (let round = 0; round < 2; round += 1) for (const a of authors) await sync(a, new Date(START + DAYS * DAY_MS));
  const tip = git(remote, ['rev-parse', 'refs/capsules/capsules']);
  const ids = new Set(git(remote, ['ls-tree', '-r', '--name-only', tip, 'capsules']).split('\n').map((p) => /\/([^/]+)\/capsule\.md$/.exec(p)?.[1]).filter(Boolean));
  const lost = [...written].filter((id) => !ids.has(id)).length;
  const converged = authors.filter((a) => git(a.dir, ['rev-parse', 'refs/heads/capsules']) === tip).length;
  const newObjects = git(remote, ['rev-list', '--objects', tip, `^${seedTip}`]).split('\n').map((l) => l.split(' ')[0]).filter(Boolean);
  const published = spawnSync('git', ['pack-objects', '--stdout', '-q', '--window=10', '--depth=50'], { cwd: remote, env, input: `${newObjects.join('\n')}\n`, maxBuffer: 1 << 30 }).stdout.length;
  const perDay = authors.map((a) => (a.disk[a.disk.length - 1] - a.disk[0]) / DAYS);
  const gitPerDay = authors.map((a) => (a.gitDisk[a.gitDisk.length - 1] - a.gitDisk[0]) / DAYS);
  // The simulated days apart: the clone's own per-turn history (the refs a sync kept and its
  // branch, less all it published) and the team's published line since the seeded year.
  const tracking = 'refs/capsule-remotes/origin/capsules/capsules';
  const ownPerDay = authors.map((a) => objectBytes(git, a.dir, [...git(a.dir, ['for-each-ref', '--format=%(refname)', 'refs/capsule-history']).split('\n').filter(Boolean), 'refs/heads/capsules', '--not', tracking]) / DAYS);
  const linePerDay = authors.map((a) => objectBytes(git, a.dir, [tracking, `^${seedTip}`]) / DAYS);
  const merges = syncs.filter((s) => s.action === 'merge').map((s) => s.ms);
  const mergeCpu = syncs.filter((s) => s.action === 'merge' && s.cpu !== null).map((s) => s.cpu);
  const mergeOurs = syncs.filter((s) => s.action === 'merge' && s.ours !== null).map((s) => s.ours);
  const mergeGit = syncs.filter((s) => s.action === 'merge' && s.gits !== null).map((s) => s.gits);
  const result = {
    authors: authorCount, sessions: SESSIONS, turns: TURNS, days: DAYS, syncEvery: SYNC_EVERY, seedDays: SEED_DAYS,
    seededCommits: seeded.commits, seededCapsulesAtTip: seeded.atTip,
    diskGrowthPerDayKiB: { median: median(perDay) / 1024, max: Math.max(...perDay) / 1024, gitDirMedian: median(gitPerDay) / 1024, ownHistoryMedian: median(ownPerDay) / 1024, publishedLineMedian: median(linePerDay) / 1024 },
    publishedKbPerAuthorDay: published / 1024 / (authorCount * DAYS),
    syncMs: { merge: median(merges), mergeCpu: mergeCpu.length ? median(mergeCpu) : null, mergeCpuOurs: mergeOurs.length ? median(mergeOurs) : null, mergeCpuGit: mergeGit.length ? median(mergeGit) : null, merges: merges.length, fastForward: median(syncs.filter((s) => s.action === 'fast-forward').map((s) => s.ms)), push: median(syncs.filter((s) => s.action === 'push').map((s) => s.ms)), attemptsMax: Math.max(...syncs.map((s) => s.attempts)) },
    holdings: values.holdings ? measureHoldings(git, work, remote, authors[0].dir, 'author0@example.com', seedTip) : undefined,
    lost, converged, seconds: Math.round((performance.now() - t0) / 1000), load: loadavg()[0],
  };
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  return result;
}

const results = [];
for (const n of TEAMS) {
  results.push(await runTeam(n));
  process.stderr.write(`team-scale: ${n} authors done (${results.at(-1).seconds} s, load ${loadavg()[0].toFixed(1)}): ${JSON.stringify(results.at(-1))}\n`);
}
if (values.json) console.log(JSON.stringify(results, null, 2));
else {
  console.log(`team-scale: ${SESSIONS} sessions × ${TURNS} turns a day per author, ${DAYS} days, sync every ${SYNC_EVERY} turns and at each session's end, over a seeded ${SEED_DAYS}-day year; ${cpus().length} cores, ${process.version}, ${gitIn(process.env)(ROOT, ['--version'])}, load ${loadavg()[0].toFixed(1)}`);
  console.log('| authors | seeded commits (capsules at tip) | disk growth per clone-day, median (max); whole .git | of it: own history / published line | published per author-day | sync merge median, wall / CPU (n) | merge CPU median, ours / git | fast-forward | push | lost | converged |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) console.log(`| ${r.authors} | ${r.seededCommits} (${r.seededCapsulesAtTip}) | ${r.diskGrowthPerDayKiB.median.toFixed(0)} KiB (${r.diskGrowthPerDayKiB.max.toFixed(0)}); ${r.diskGrowthPerDayKiB.gitDirMedian.toFixed(0)} KiB | ${r.diskGrowthPerDayKiB.ownHistoryMedian.toFixed(0)} / ${r.diskGrowthPerDayKiB.publishedLineMedian.toFixed(0)} KiB | ${r.publishedKbPerAuthorDay.toFixed(1)} KB | ${r.syncMs.merge?.toFixed(0)} / ${r.syncMs.mergeCpu?.toFixed(0) ?? '-'} ms (${r.syncMs.merges}) | ${r.syncMs.mergeCpuOurs?.toFixed(0) ?? '-'} / ${r.syncMs.mergeCpuGit?.toFixed(0) ?? '-'} ms | ${r.syncMs.fastForward?.toFixed(0) ?? '-'} ms | ${r.syncMs.push?.toFixed(0) ?? '-'} ms | ${r.lost} | ${r.converged}/${r.authors} |`);
  for (const r of results.filter((x) => x.holdings)) {
    const h = r.holdings;
    console.log(`holdings at ${r.authors} authors (author0, ${h.publishes} publishes a run): tip-only repository ${h.tipOnlyKiB.toFixed(0)} KiB after the seeded year, +${h.tipOnlyFetchedPerDayKiB.toFixed(0)} KiB a day fetched, ${h.tipOnlyPrunedPerDayKiB >= 0 ? '+' : ''}${h.tipOnlyPrunedPerDayKiB.toFixed(0)} KiB a day once pruned; union trees at its publishes ${h.unionTreesPerDayKiB.toFixed(0)} KiB a day`);
  }
  if (results.length >= 2) {
    const [small, large] = [results[0].diskGrowthPerDayKiB, results.at(-1).diskGrowthPerDayKiB];
    console.log(`disk growth per clone-day, ${results.at(-1).authors} vs ${results[0].authors} authors: ${(large.median / small.median).toFixed(2)}x (whole .git ${(large.gitDirMedian / small.gitDirMedian).toFixed(2)}x; own history ${(large.ownHistoryMedian / small.ownHistoryMedian).toFixed(2)}x, published line ${(large.publishedLineMedian / small.publishedLineMedian).toFixed(2)}x)`);
  }
}
