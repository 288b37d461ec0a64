import { closeSync, constants, fchmodSync, fstatSync, linkSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';
import { ensurePrivateDir, readPrivateFile } from './private-file';
import { STATE_FILES } from './state-files';

const KEY_TEXT = /^([0-9a-f]{64})\n?$/;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * This clone's seal key (docs/format.md "Seal"), or null when none was made yet: 32 bytes in
 * `<runtime dir>/seal-key`, read never through a link. Linked worktrees share it, another clone
 * has its own. A key file the group or others may read is narrowed to 0600 first. Throws
 * SEAL_KEY_UNREADABLE when the file holds no key (damaged: remove it, and this clone's seals
 * with it).
 */
export function readSealKey(runtimeDir: string): Uint8Array | null {
  const path = join(runtimeDir, STATE_FILES.sealKey.path);
  const text = readPrivateFile(path);
  if (text === null) return null;
  const m = KEY_TEXT.exec(text);
  if (m === null) throw new CapsuleError('SEAL_KEY_UNREADABLE', `${path} does not hold a seal key (64 hex digits); remove it to make a new one (capsules sealed with the old key then count as another clone's)`, { path });
  narrow(path);
  return new Uint8Array(Buffer.from(m[1]!, 'hex'));
}

/**
 * This clone's seal key, made on first need: random bytes written 0600 to a temp file and linked
 * into place (create-only), so two hooks racing to make it both end up with the first one's.
 * `fresh` says whether this call made it (the store then seals what this clone wrote before).
 * Throws SEAL_KEY_UNREADABLE, STATE_FILE_UNSAFE, and an unwritable runtime dir's error.
 */
export function ensureSealKey(runtimeDir: string, randomBytes: (n: number) => Uint8Array): { key: Uint8Array; fresh: boolean } {
  const existing = readSealKey(runtimeDir);
  if (existing !== null) return { key: existing, fresh: false };
  ensurePrivateDir(runtimeDir);
  const path = join(runtimeDir, STATE_FILES.sealKey.path);
  const temp = `${path}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    const bytes = new TextEncoder().encode(`${Buffer.from(randomBytes(32)).toString('hex')}\n`);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } finally {
    closeSync(fd);
  }
  let fresh = true;
  try {
    linkSync(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    fresh = false;
  } finally {
    rmSync(temp, { force: true });
  }
  const key = readSealKey(runtimeDir);
  if (key === null) throw new CapsuleError('SEAL_KEY_UNREADABLE', `${path} could not be read back after it was made; check the runtime dir's permissions`, { path });
  return { key, fresh };
}

function narrow(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW);
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  } catch {
    // Read a moment ago; a race with a removal leaves nothing to narrow.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
