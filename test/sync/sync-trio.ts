import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { copyOfTemplate } from '../support/repo-template';
import { join } from 'node:path';
import { renderCapsule } from '../../lib/capsule/render';
import { emptySections } from '../../lib/capsule/sections';
import type { CapsuleStatus } from '../../lib/capsule/types';
import { openStore } from '../../lib/store/open-store';
import { syncMemory, type SyncOptions, type SyncReport } from '../../lib/sync/sync-memory';

/** A bare remote and two clones of it, with an environment free of the user's git config. */
export interface Trio {
  root: string;
  remote: string;
  a: string;
  b: string;
  env: NodeJS.ProcessEnv;
}

/** Runs real git (with `input` on its stdin) and returns its trimmed stdout. */
export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv, input?: string): string {
  return execFileSync('git', args, { cwd, env, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] }).trim();
}

/** Clones `remote` into `<root>/<name>` with an identity. */
export function cloneInto(trio: Trio, name: string): string {
  const dir = join(trio.root, name);
  git(trio.root, ['clone', '-q', trio.remote, dir], trio.env);
  git(dir, ['config', 'user.name', `User ${name}`], trio.env);
  git(dir, ['config', 'user.email', `${name}@example.com`], trio.env);
  return dir;
}

/** A bare remote holding one commit on main, cloned twice (a, b); a copy of the one made first in this test file (test/support/repo-template.ts). */
export function makeTrio(): Trio {
  const root = copyOfTemplate('trio', 'capsule-sync-', (at) => {
    const env = trioEnv(at);
    const remote = join(at, 'remote.git');
    git(at, ['init', '-q', '--bare', '-b', 'main', remote], env);
    const seed = join(at, 'seed');
    git(at, ['init', '-q', '-b', 'main', seed], env);
    git(seed, ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '--allow-empty', '-m', 'initial'], env);
    git(seed, ['push', '-q', remote, 'main'], env);
    const trio: Trio = { root: at, remote, a: '', b: '', env };
    cloneInto(trio, 'a');
    cloneInto(trio, 'b');
  });
  return { root, remote: join(root, 'remote.git'), a: join(root, 'a'), b: join(root, 'b'), env: trioEnv(root) };
}

/** The trio's git environment: HOME is its root, no system config, its own runtime state. */
function trioEnv(root: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH, HOME: root, TZ: 'UTC', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: join(root, '.gitconfig'),
    CAPSULE_STATE_DIR: join(root, 'state'),
  };
}

/** Removes the trio's directories. */
export function removeTrio(trio: Trio): void {
  rmSync(trio.root, { recursive: true, force: true });
}

/** A ULID-shaped id distinct per `n`. */
export function testId(n: number): string {
  return `01JDQ7${String(n).padStart(20, '0')}`;
}

/** A valid capsule document; `n` picks the id. */
export function capsuleText(n: number, fields: Record<string, unknown> = {}): string {
  return renderCapsule({
    frontmatter: {
      id: testId(n), objective: `Objective ${n}`, waiting_on: 'nothing', next_valid_action: `Step ${n}`,
      status: 'active', trigger: 'manual', created_at: '2026-11-29T20:00:00Z', ...fields,
    },
    sections: emptySections(),
    notes: '',
  });
}

/** Writes capsules into a clone's memory branch. */
export async function writeCapsules(dir: string, env: NodeJS.ProcessEnv, texts: string[], opts: { replace?: boolean } = {}): Promise<void> {
  const store = await openStore({ cwd: dir, env });
  try {
    for (const text of texts) await store.writeCapsule(text, { now: new Date('2026-11-29T21:00:00Z'), replace: opts.replace });
  } finally {
    await store.close();
  }
}

/** Adds a status event in a clone. */
export async function setStatus(dir: string, env: NodeJS.ProcessEnv, id: string, status: CapsuleStatus, writer: string, at = '2026-11-29T22:00:00Z'): Promise<void> {
  const store = await openStore({ cwd: dir, env });
  try {
    await store.setStatus(id, status, { writer, now: new Date(at) });
  } finally {
    await store.close();
  }
}

/**
 * The clock of a sync unless a test passes its own: the real clock moved back to the day after the
 * fixtures' dates (capsules created 2026-11-29, their status events that evening), so it still
 * runs (each sync keeps the local tip it replaces under a ref named by the time: a frozen clock
 * would name two of them alike). On the real clock the sync would retire the finished fixtures
 * from 2026-12-29 (capsule.retireAfterDays, 30) and forget tombstones dated 2026-11-30 from
 * 2027-03-01 (capsule.keepHistoryDays, 90), and the tests would fail from then.
 */
const SYNC_EPOCH = Date.parse('2026-11-30T00:00:00Z') - Date.now();
export const SYNC_NOW = (): Date => new Date(Date.now() + SYNC_EPOCH);

/** Syncs a clone with a fast backoff, at SYNC_NOW unless `opts.now` says otherwise. */
export function sync(dir: string, env: NodeJS.ProcessEnv, opts: Partial<SyncOptions> = {}): Promise<SyncReport> {
  return syncMemory({ cwd: dir, env, sleep: async () => undefined, now: SYNC_NOW, ...opts });
}

/** id → derived status on a clone's memory branch, read from its index (after checking the index is exactly what a rebuild gives). */
export async function statuses(dir: string, env: NodeJS.ProcessEnv): Promise<Record<string, CapsuleStatus>> {
  const store = await openStore({ cwd: dir, env });
  try {
    const rebuilt = await store.rebuildIndex({ now: new Date('2026-11-30T00:00:00Z') });
    if (rebuilt.changed) throw new Error(`index of ${dir} differs from a rebuild`);
    const out: Record<string, CapsuleStatus> = {};
    for (const e of await store.listIndex()) out[e.id] = e.status;
    return out;
  } finally {
    await store.close();
  }
}

/** The text of a capsule document on a clone's memory branch. */
export async function readText(dir: string, env: NodeJS.ProcessEnv, id: string): Promise<string> {
  const store = await openStore({ cwd: dir, env });
  try {
    return (await store.readCapsule(id)).text;
  } finally {
    await store.close();
  }
}

/** Exit code and output of `git fsck --no-dangling --strict` (0 when clean). */
export function fsck(dir: string, env: NodeJS.ProcessEnv): { code: number; output: string } {
  const r = spawnSync('git', ['fsck', '--no-dangling', '--strict'], { cwd: dir, env, encoding: 'utf8' });
  return { code: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
}

/** Where the memory lives on a remote: outside the refspecs a plain clone or fetch uses. */
export const REMOTE_REF = 'refs/capsules/capsules';

/** The commit of `ref` in `dir` (default: a clone's memory branch; pass REMOTE_REF for the remote), or null. */
export function refOf(dir: string, env: NodeJS.ProcessEnv, ref = 'refs/heads/capsules'): string | null {
  const r = spawnSync('git', ['rev-parse', '--verify', '--quiet', ref], { cwd: dir, env, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
