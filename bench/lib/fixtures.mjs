// Builds memory-branch fixtures fast: `init` for the real root, ONE fast-import stream adding
// every capsule and status event, then `reindex` to build the derived index the way a merge
// repair would. 10,000 capsules take seconds, not 10,000 CLI calls.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const OFFSETS = ['Z', '+02:00', '-05:00', '+05:30'];

/** A ULID-shaped id for capsule i, time part from its creation instant. */
function fixtureId(ms, i) {
  let time = '';
  for (let k = 0, t = ms; k < 10; k += 1, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  let rest = '';
  for (let k = 0, x = i + 1; k < 16; k += 1, x = Math.floor(x / 32)) rest = CROCKFORD[x % 32] + rest;
  return time + rest;
}

/** created_at with one of several offsets, so the index's UTC keys matter. */
function stampWithOffset(ms, i) {
  const offset = OFFSETS[i % OFFSETS.length];
  if (offset === 'Z') return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const sign = offset[0] === '-' ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 19)}${offset}`;
}

function capsuleDoc({ id, createdAt, i }) {
  return `---
id: ${id}
objective: Fixture capsule ${i} for the store benchmark
waiting_on: nothing
next_valid_action: Measure selection and write latency
status: active
trigger: ${i % 3 === 0 ? 'manual' : 'autosave'}
created_at: ${createdAt}
session_id: fixture-session-${i % 50}
---

<!-- capsule:done -->
## Done [REFERENCE ONLY]
- built fixture capsule ${i}

<!-- capsule:errors -->
## Historical-Errors → Resolutions [REFERENCE ONLY]

<!-- capsule:rejected -->
## Historical-Rejected-Approaches [REFERENCE ONLY]

<!-- capsule:files -->
## Files-Read / Files-Modified [REFERENCE ONLY]
- read: bench/run.mjs

<!-- capsule:facts -->
## Operating-Facts [REFERENCE ONLY]

<!-- capsule:gates -->
## Pending-Gates [REFERENCE ONLY]

<!-- capsule:claimed -->
## Claimed-Rows [REFERENCE ONLY]
`;
}

function data(text) {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

function utcKey(ms) {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace('.', '');
}

/**
 * A repository whose memory branch holds `n` capsules spread over 36 months with mixed
 * offsets: 2% active (at least one), the rest resumed or resolved by status events.
 * `gc.auto=0` so a measured write never triggers a repack of the fixture; `loose` keeps
 * every object loose (fast-import would otherwise pack them).
 */
export function buildFixture({ dir, n, bundle, env }) {
  mkdirSync(dir, { recursive: true });
  const git = (args, input) => execFileSync('git', args, { cwd: dir, env, input, encoding: 'utf8', maxBuffer: 1 << 30 });
  git(['init', '-q', '-b', 'main']);
  git(['config', 'gc.auto', '0']);
  git(['config', 'user.name', 'Bench']);
  git(['config', 'user.email', 'bench@example.com']);
  run(process.execPath, [bundle, 'init'], dir, env);
  const end = Date.parse('2026-11-01T00:00:00Z');
  const span = 36 * 30 * 86_400_000;
  const activeEvery = Math.max(1, Math.floor(n / Math.max(1, Math.round(n * 0.02))));
  const parts = [`commit refs/heads/capsules\ncommitter Bench <bench@example.com> ${Math.floor(end / 1000)} +0000\n${data(`fixture: ${n} capsules\n`)}from refs/heads/capsules^0\n`];
  for (let i = 0; i < n; i += 1) {
    const ms = end - Math.floor((span * (n - i)) / n);
    const id = fixtureId(ms, i);
    const d = new Date(ms);
    const dir2 = `capsules/${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${id}`;
    parts.push(`M 100644 inline ${dir2}/capsule.md\n${data(capsuleDoc({ id, createdAt: stampWithOffset(ms, i), i }))}`);
    if (i % activeEvery !== 0) {
      const status = i % 2 === 0 ? 'resolved' : 'resumed';
      const at = ms + 3_600_000;
      parts.push(`M 100644 inline ${dir2}/status/${utcKey(at)}-fixture-${status}\n${data(`status: ${status}\nwriter: fixture\nat: ${new Date(at).toISOString()}\n`)}`);
    }
  }
  parts.push('\ndone\n');
  execFileSync('git', ['-c', 'fastimport.unpackLimit=100000000', 'fast-import', '--quiet', '--done'], { cwd: dir, env, input: parts.join(''), maxBuffer: 1 << 30 });
  run(process.execPath, [bundle, 'reindex'], dir, env);
  return { dir, n, active: Math.ceil(n / activeEvery) };
}

/** Packs the fixture the way a user's `git gc` would. */
export function packFixture(dir, env) {
  execFileSync('git', ['gc', '--quiet', '--prune=now'], { cwd: dir, env });
}

/** Loose and packed object counts, for the table. */
export function objectCounts(dir, env) {
  const out = execFileSync('git', ['count-objects', '-v'], { cwd: dir, env, encoding: 'utf8' });
  const get = (k) => Number((out.match(new RegExp(`^${k}: (\\d+)`, 'm')) ?? [])[1] ?? 0);
  return { loose: get('count'), packed: get('in-pack') };
}

function run(cmd, args, cwd, env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

export { join };
