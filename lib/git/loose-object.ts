import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zlib } from './lazy-modules';
import type { RawObject } from './pack-file';

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
