import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newCapsuleId } from '../capsule/id';
import { STATE_FILES } from './state-files';
import { ensureOwnDir } from './state-dir-trust';

/** The machine id's file inside the runtime dir (STATE_FILES.machineId): made once per clone, never committed, never changed. */
export const MACHINE_ID_FILE = STATE_FILES.machineId.path;

/**
 * Who and where a capsule is written, as the store stamps it into the frontmatter
 * (docs/format.md "Identity"): `machine` is a random id of this clone on this machine (no
 * hostname, no path), `worktree` an id of the worktree derived from it, never its path.
 */
export interface LocalIdentity {
  machine: string;
  worktree: string;
}

const MACHINE_ID = /^m-[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * This clone's machine id (`m-<ULID>`), created on first use with a create-only link, so two
 * hooks racing to create it both end up with the first one's id. The runtime dir is the clone's
 * (`<git common dir>/capsule`, or `CAPSULE_STATE_DIR`): linked worktrees share it, another
 * clone on the same machine has its own. Throws on an unwritable runtime dir, STATE_DIR_UNSAFE.
 */
export function readMachineId(runtimeDir: string, now: Date): string {
  const path = join(runtimeDir, MACHINE_ID_FILE);
  const existing = readId(path);
  if (existing !== null) return existing;
  ensureOwnDir(runtimeDir);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `m-${newCapsuleId(now)}\n`, { mode: 0o600 });
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temp, { force: true });
  }
  const made = readId(path);
  if (made === null) throw new Error(`${path} does not hold a machine id; remove it and try again`);
  return made;
}

/**
 * The identity of one worktree of this clone: the machine id, and a worktree id hashed from
 * it and the worktree's git dir relative to the common dir (`.` for the main worktree), so the
 * id is stable, differs between worktrees, and names no path.
 */
export function readLocalIdentity(runtimeDir: string, where: { commonDir: string; gitDir: string }, now: Date): LocalIdentity {
  const machine = readMachineId(runtimeDir, now);
  const rel = where.gitDir === where.commonDir ? '.' : where.gitDir.startsWith(`${where.commonDir}/`) ? where.gitDir.slice(where.commonDir.length + 1) : where.gitDir;
  return { machine, worktree: `w-${fnv1a64(`${machine}\0${rel}`)}` };
}

function readId(path: string): string | null {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return MACHINE_ID.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** FNV-1a, 64 bits, as 16 hex digits: a stable, cheap name (node:crypto would cost ~5 ms to load in every hook). */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}
