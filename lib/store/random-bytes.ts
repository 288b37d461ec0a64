import { closeSync, openSync, readSync } from 'node:fs';
import { newCapsuleId } from '../capsule/id';

/**
 * `n` random bytes for a new capsule id: one small read of /dev/urandom (the kernel's CSPRNG,
 * what node:crypto also draws from), else node:crypto where there is no such device (Windows).
 * Loading node:crypto costs ~4 ms, a tenth of a `write`'s own work.
 */
export function randomBytesForId(n: number): Buffer {
  const bytes = Buffer.alloc(n);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      // Uint8Array view: @types/node 20.9 and TypeScript 5.9 disagree about Buffer.
      if (readSync(fd, new Uint8Array(bytes.buffer, bytes.byteOffset, n), 0, n, null) === n) return bytes;
    } finally {
      closeSync(fd);
    }
  } catch {
    // No /dev/urandom here: node:crypto below.
  }
  // A lazy require: this module must not load at start.
  return (require('node:crypto') as typeof import('node:crypto')).randomBytes(n);
}

/** A new capsule id for `now`, from this machine's random bytes (the ids the hooks and `write` mint). */
export function mintCapsuleId(now: Date): string {
  return newCapsuleId(now, randomBytesForId);
}
