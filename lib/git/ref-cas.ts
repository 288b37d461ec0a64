import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readRefFile, type RefDirs } from './ref-files';

/** What the move of a ref came to: moved, lost to another writer, or a state only git may judge. */
export type RefMove = { ok: true } | { ok: false; reason: string } | { ok: 'ask-git'; reason: string };

/** Who moved the ref, for its reflog line (as fast-import would write it). */
export interface RefLogLine {
  name: string;
  email: string;
  epochSeconds: number;
  message: string;
}

/**
 * Moves `ref` from `expected` to `next` the way git's files backend does, so git and this
 * writer exclude each other: create `<ref>.lock` exclusively (another writer holding it is a
 * lost race, reported in git's own words so the stale-lock cleanup recognises it), check under
 * the lock that the ref still holds `expected` (loose file, else packed-refs), write the new
 * value into the lock, append the reflog line when the ref has a reflog, and rename the lock
 * over the ref. A writer killed at any point leaves the ref at the old or the new value, never
 * torn, and at most a lock file that the next writer removes once it is stale.
 */
export function moveRef(dirs: RefDirs, ref: string, expected: string, next: string, log: RefLogLine): RefMove {
  const path = join(dirs.commonDir, ref);
  const lock = `${path}.lock`;
  let fd: number;
  try {
    fd = openLock(lock);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return { ok: false, reason: `Unable to create '${lock}': File exists.` };
    return { ok: 'ask-git', reason: `cannot create ${lock}: ${code ?? String(err)}` };
  }
  let renamed = false;
  try {
    const current = readRefFile(dirs, ref);
    if (current === null) return { ok: 'ask-git', reason: `${ref} cannot be read from its files` };
    const found = 'oid' in current ? current.oid : null;
    if (found !== expected) return { ok: false, reason: `cannot lock ref '${ref}': is at ${found ?? 'nothing'} but expected ${expected}` };
    writeSync(fd, `${next}\n`);
    closeSync(fd);
    fd = -1;
    const reflog = join(dirs.commonDir, 'logs', ref);
    // git appends to a reflog that exists; it creates one only for the refs core.logAllRefUpdates names.
    if (existsSync(reflog)) appendFileSync(reflog, `${expected} ${next} ${log.name} <${log.email}> ${log.epochSeconds} +0000\t${oneLine(log.message)}\n`);
    renameSync(lock, path);
    renamed = true;
    return { ok: true };
  } finally {
    if (fd !== -1) closeSync(fd);
    if (!renamed) unlinkQuietly(lock);
  }
}

function openLock(lock: string): number {
  try {
    return openSync(lock, 'wx', 0o666);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(lock), { recursive: true });
    return openSync(lock, 'wx', 0o666);
  }
}

function oneLine(message: string): string {
  return message.split('\n')[0]!.replace(/\s+/g, ' ').trim();
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}
