// Measures `git capsule sync` on a 10,000-capsule memory branch: two clones of one bare
// remote, both sides add a few capsules and status events, then sync; then a push race.
// Run: npm run build && npx esbuild bench/sync-10k.ts --bundle --platform=node --outfile=/tmp/sync-10k.js --log-level=warning && node /tmp/sync-10k.js [N]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderCapsule } from '../lib/capsule/render';
import { emptySections } from '../lib/capsule/sections';
import { openStore } from '../lib/store/open-store';

const N = Number(process.argv[2] ?? 10_000);
// Run from the repository root (the bundle lives in /tmp, so __dirname is no guide).
const CLI = resolve(process.cwd(), 'dist', 'git-capsule.js');
const root = mkdtempSync(join(tmpdir(), 'capsule-sync-bench-'));
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: root, TZ: 'UTC', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(root, '.gitconfig'), CAPSULE_STATE_DIR: join(root, 'state') };
const git = (cwd: string, args: string[], input?: string) => execFileSync('git', args, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();

function id(n: number, prefix = '01JDQ7'): string {
  return `${prefix}${String(n).padStart(20, '0')}`;
}
function doc(n: number, prefix?: string): string {
  const month = String((n % 12) + 1).padStart(2, '0');
  return renderCapsule({
    frontmatter: { id: id(n, prefix), objective: `Objective number ${n}`, waiting_on: 'nothing', next_valid_action: `Step ${n}`, status: 'active', trigger: 'manual', created_at: `2026-${month}-15T10:00:00Z` },
    sections: emptySections(),
    notes: '',
  });
}

function timeSync(dir: string, label: string, nodeArgs: string[] = []): Record<string, unknown> {
  // Wall time moves with the machine's load; CPU time (node plus every git it waited for, from
  // /usr/bin/time) is the steadier number on a shared machine.
  const timeFile = join(root, 'time.txt');
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, process.execPath, ...nodeArgs, CLI, 'sync', '--json'], { cwd: dir, env, encoding: 'utf8' });
  const ms = Math.round(performance.now() - t0);
  if (r.status !== 0) throw new Error(`${label}: ${r.stderr}`);
  const [user = 0, sys = 0] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  const cpu = Math.round((user + sys) * 1000);
  const report = JSON.parse(r.stdout) as Record<string, unknown>;
  console.log(`${label.padEnd(44)} ${String(ms).padStart(6)} ms wall ${String(cpu).padStart(6)} ms cpu  action=${String(report.action)} attempts=${String(report.attempts)}`);
  return { ...report, ms, cpu };
}

function timeSyncAsync(dir: string): Promise<{ ms: number; code: number; out: string; err: string }> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, 'sync', '--json'], { cwd: dir, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => done({ ms: Math.round(performance.now() - t0), code: code ?? -1, out, err }));
  });
}

async function addCapsules(dir: string, ns: number[], prefix: string, statuses: Array<[number, 'paused' | 'resolved']> = []): Promise<void> {
  const store = await openStore({ cwd: dir, env });
  try {
    for (const n of ns) await store.writeCapsule(doc(n, prefix), { now: new Date() });
    for (const [n, s] of statuses) await store.setStatus(id(n), s, { writer: prefix, now: new Date() });
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const remote = join(root, 'remote.git');
  git(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  const a = join(root, 'a');
  git(root, ['clone', '-q', remote, a]);
  git(a, ['config', 'user.name', 'A']);
  git(a, ['config', 'user.email', 'a@example.com']);

  // Seed N capsules in one fast-import commit on the deterministic root, then let the store build the index.
  const store = await openStore({ cwd: a, env });
  await store.init();
  const parts = [`commit refs/heads/capsules\ncommitter Bench <b@example.com> 1767225600 +0000\ndata 5\nseed\nfrom refs/heads/capsules^0\n`];
  for (let n = 0; n < N; n += 1) {
    const text = doc(n);
    const month = String((n % 12) + 1).padStart(2, '0');
    parts.push(`M 100644 inline capsules/2026/${month}/${id(n)}/capsule.md\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  }
  git(a, ['fast-import', '--quiet'], `${parts.join('')}\ndone\n`);
  const t0 = performance.now();
  await store.rebuildIndex({ now: new Date() });
  console.log(`seed: ${N} capsules, index rebuilt in ${Math.round(performance.now() - t0)} ms`);
  await store.close();
  git(a, ['gc', '-q']);

  timeSync(a, `A: first push of ${N} capsules`);
  const b = join(root, 'b');
  git(root, ['clone', '-q', remote, b]);
  git(b, ['config', 'user.name', 'B']);
  git(b, ['config', 'user.email', 'b@example.com']);
  timeSync(b, 'B: never ran init, receives all (ff)');
  timeSync(b, 'B: up to date');

  for (let round = 0; round < 3; round += 1) {
    await addCapsules(a, [1, 2, 3].map((k) => N + round * 10 + k), '01JDQA', [[round * 2, 'paused']]);
    await addCapsules(b, [1, 2, 3].map((k) => N + round * 10 + k), '01JDQB', [[round * 2 + 1, 'resolved']]);
    timeSync(a, `round ${round}: A pushes 3 capsules + 1 event`);
    timeSync(b, `round ${round}: B merges 3+1 in, 3+1 out, pushes`, process.env.SYNC_PROF && round === 1 ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SYNC_PROF}`] : []);
    timeSync(a, `round ${round}: A fast-forwards`);
  }

  await addCapsules(a, [N + 100], '01JDQA');
  await addCapsules(b, [N + 100], '01JDQB');
  const [ra, rb] = await Promise.all([timeSyncAsync(a), timeSyncAsync(b)]);
  for (const [name, r] of [['A', ra], ['B', rb]] as const) {
    const report = r.code === 0 ? (JSON.parse(r.out) as Record<string, unknown>) : { action: `FAILED ${r.err.trim()}`, attempts: '-' };
    console.log(`race: ${name} ${String(r.ms).padStart(6)} ms action=${String(report.action)} attempts=${String(report.attempts)}`);
  }
  timeSync(a, 'after race: A');
  timeSync(b, 'after race: B');
  const tips = [a, b, remote].map((d) => git(d, ['rev-parse', 'refs/heads/capsules']));
  console.log(`converged: ${new Set(tips).size === 1}; capsules on remote: ${git(remote, ['ls-tree', '-r', '--name-only', 'refs/heads/capsules']).split('\n').filter((p) => p.endsWith('capsule.md')).length}`);
  console.log(`fsck a: ${spawnSync('git', ['fsck', '--no-dangling'], { cwd: a, env }).status === 0 ? 'clean' : 'ERRORS'}`);
}

main().finally(() => rmSync(root, { recursive: true, force: true })).catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
