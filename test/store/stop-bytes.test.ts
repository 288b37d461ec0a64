import { execFileSync } from 'node:child_process';
import { deflateSync } from 'node:zlib';
import { newCapsuleId } from '../../lib/capsule/id';
import { openStore } from '../../lib/store/open-store';
import { capsuleText, cleanup, git, makeRepo } from './support/temp-repo';

// What one Stop adds to a clone's object store must not grow with how many capsules the rest of
// the team wrote that day: every Stop rewrites its own autosave and that autosave's index line,
// and a shard listing the whole team's active capsules of the day made each Stop's bytes grow
// with the team (issue 34). Measured with real git: the objects the Stops' commits added, each
// stored whole (zlib, as a write's own pack first lands them) and packed together (as the
// geometric roll-up of those packs, or any repack, keeps them).

const DAY = new Date('2026-12-06T09:00:00Z');
const STOPS = 20;

interface Growth { whole: number; packed: number }

/** The bytes `STOPS` autosaves of one session add beside `teammates` other authors' active capsules of the same day. */
async function stopGrowth(teammates: number): Promise<Growth> {
  const { dir, env } = makeRepo();
  try {
    for (let i = 0; i < teammates; i += 1) {
      const store = await openStore({ cwd: dir, env: { ...env, GIT_COMMITTER_EMAIL: `teammate${i}@example.com`, GIT_COMMITTER_NAME: `Teammate ${i}` } });
      try {
        const at = new Date(DAY.getTime() + i * 60_000);
        const id = newCapsuleId(at, (n) => Buffer.alloc(n, i + 1));
        await store.writeCapsule(capsuleText({ id, trigger: 'autosave', created_at: at.toISOString(), session_id: `5e55a000-0000-4000-8000-${String(i).padStart(12, '0')}`, objective: `Teammate ${i} works on feature ${i}` }), { now: at, replace: true });
      } finally {
        await store.close();
      }
    }
    const store = await openStore({ cwd: dir, env });
    try {
      const at = new Date(DAY.getTime() + 3_600_000);
      const id = newCapsuleId(at, (n) => Buffer.alloc(n, 250));
      const doc = (turn: number) => capsuleText({ id, trigger: 'autosave', created_at: at.toISOString(), session_id: '5e55a000-0000-4000-8000-ffffffffffff', objective: `step ${turn}: keep going on the feature`, next_valid_action: `Run the tests after step ${turn}` });
      await store.writeCapsule(doc(0), { now: at, replace: true });
      const before = git(dir, ['rev-parse', 'capsules'], env);
      for (let turn = 1; turn <= STOPS; turn += 1) await store.writeCapsule(doc(turn), { now: new Date(at.getTime() + turn * 60_000), replace: true });
      const ids = git(dir, ['rev-list', '--objects', 'capsules', `^${before}`], env).split('\n').map((l) => l.split(' ')[0]!).filter(Boolean);
      const whole = wholeBytes(dir, env, ids);
      const packed = execFileSync('git', ['pack-objects', '--stdout', '-q', '--threads=1', '--window=10', '--depth=50'], { cwd: dir, env, input: `${ids.join('\n')}\n`, maxBuffer: 1 << 26 }).length;
      return { whole: whole / STOPS, packed: packed / STOPS };
    } finally {
      await store.close();
    }
  } finally {
    cleanup(dir);
  }
}

/** The objects `ids` stored whole: each zlib-deflated with its header, as a loose object (or an undeltified pack entry) holds it. */
function wholeBytes(dir: string, env: NodeJS.ProcessEnv, ids: readonly string[]): number {
  const out = execFileSync('git', ['cat-file', '--batch'], { cwd: dir, env, input: `${ids.join('\n')}\n`, maxBuffer: 1 << 26 });
  let total = 0;
  for (let at = 0; at < out.length;) {
    const eol = out.indexOf(10, at);
    const [, type, size] = out.subarray(at, eol).toString('utf8').split(' ');
    const content = out.subarray(eol + 1, eol + 1 + Number(size));
    const header = new TextEncoder().encode(`${type} ${size}\0`);
    const object = new Uint8Array(header.length + content.length);
    object.set(header);
    object.set(content, header.length);
    total += deflateSync(object).length;
    at = eol + 1 + Number(size) + 1;
  }
  return total;
}

describe('the bytes one Stop adds to the object store', () => {
  jest.setTimeout(120_000);

  it('stay within 1.25x beside 40 teammates\' active capsules of the day of what they are beside 2', async () => {
    const two = await stopGrowth(2);
    const forty = await stopGrowth(40);
    process.stderr.write(`bytes per Stop beside 2 teammates: ${two.whole.toFixed(0)} stored whole, ${two.packed.toFixed(0)} packed; beside 40: ${forty.whole.toFixed(0)} stored whole, ${forty.packed.toFixed(0)} packed (${(forty.whole / two.whole).toFixed(2)}x, ${(forty.packed / two.packed).toFixed(2)}x)\n`);
    expect(forty.packed / two.packed).toBeLessThanOrEqual(1.25);
    // Stored whole, as each write's own pack first holds them, two day trees still list every
    // teammate's capsule (capsules/<day>/ and index/active/<day>/): 20 bytes of object id each.
    // The roll-up past 16 packs (lib/git/housekeeping.ts) deltas them away; what stays is the
    // packed figure. Printed, not asserted.
  });
});
