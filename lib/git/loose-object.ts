import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { zlib } from './lazy-modules';
import type { RawObject } from './pack-file';
import { sha1Hex } from './sha1';

/** `objects/ab/cdef…`: where git keeps the loose object `oid`. */
export function loosePath(objectsDir: string, oid: string): string {
  return join(objectsDir, oid.slice(0, 2), oid.slice(2));
}

/** A loose object, or null when there is none by that id; throws on a file that is not one. */
export function readLooseObject(objectsDir: string, oid: string): RawObject | null {
  let raw: Buffer;
  try {
    raw = readFileSync(loosePath(objectsDir, oid));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const data = zlib().inflateSync(raw as unknown as Uint8Array);
  const nul = data.indexOf(0);
  const header = /^(commit|tree|blob|tag) (\d+)$/.exec(data.subarray(0, nul).toString('latin1'));
  if (nul < 0 || !header || Number(header[2]) !== data.length - nul - 1) throw new Error(`loose object ${oid} has a bad header`);
  return { type: header[1]!, content: data.subarray(nul + 1) };
}

/** The id git gives an object of `type` with `content` (`<type> <size>\0<content>`, SHA-1). */
export function objectId(type: string, content: Buffer): string {
  return sha1Hex([Buffer.from(`${type} ${content.length}\0`, 'latin1') as unknown as Uint8Array, content as unknown as Uint8Array]);
}

/**
 * Writes an object as git does: deflated into a temporary file in its fan-out folder, then
 * linked to its final name, which makes it appear whole or not at all (a writer killed midway
 * leaves at most a `tmp_obj_*` file, which `git gc` removes). An object that exists already as
 * a loose file is kept and freshened (its mtime set to now), as git does: an unreachable object
 * older than `gc.pruneExpire` that this write makes reachable again would otherwise be pruned
 * by a `git gc` that began before the ref moved. Where hard links are not supported the file is
 * renamed into place instead (git's `core.createObject=rename`). Read-only like git's (0444).
 * Returns the id.
 */
export function writeLooseObject(objectsDir: string, type: string, content: Buffer): string {
  const oid = objectId(type, content);
  const final = loosePath(objectsDir, oid);
  if (freshen(final)) return oid;
  const dir = join(objectsDir, oid.slice(0, 2));
  const temp = join(dir, `tmp_obj_${process.pid}_${Math.random().toString(36).slice(2, 10)}`);
  const body = zlib().deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`, 'latin1'), content] as unknown as Uint8Array[]) as unknown as Uint8Array, { level: 1 });
  let fd: number;
  try {
    fd = openSync(temp, 'wx', 0o444);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
    fd = openSync(temp, 'wx', 0o444);
  }
  try {
    writeSync(fd, body as unknown as Uint8Array);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, final);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
      renameSync(temp, final);
      return oid;
    }
  }
  unlinkSync(temp);
  return oid;
}

/**
 * True when the loose file exists and now carries the current time; false when there is none.
 * Throws when it exists but cannot be touched (git would then write a new copy; the caller's
 * fallback, fast-import, packs one).
 */
function freshen(path: string): boolean {
  const now = new Date();
  try {
    utimesSync(path, now, now);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
