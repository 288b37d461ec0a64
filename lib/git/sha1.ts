/**
 * SHA-1 of the concatenated `parts`, as 40 hex digits: git's object id (naming, not secrecy).
 * node:crypto is loaded on first use, by a hook that writes: loading it costs ~4 ms, but a
 * write hashes 50–150 KB (a month folder's tree, its index shards), which plain JavaScript,
 * run cold in a fresh process, hashes slower than that (measured 14–24 ms against 8–13 ms
 * of CPU for 130 KB, load and all).
 */
export function sha1Hex(parts: readonly Uint8Array[]): string {
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const hash = createHash('sha1');
  for (const p of parts) hash.update(p);
  return hash.digest('hex');
}
