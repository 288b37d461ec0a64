/**
 * SHA-1 of the concatenated `parts`, as 40 hex digits: git's object id (for naming objects, not
 * for secrecy). Plain JavaScript because loading node:crypto costs ~4 ms, a tenth of node's own
 * start, and a hook hashes only a few small objects (a 1,000-entry tree is ~50 KB: well under a
 * millisecond).
 */
export function sha1Hex(parts: readonly Uint8Array[]): string {
  const total = parts.reduce((n, p) => n + p.length, 0);
  // Message, 0x80, zero padding, then the bit length in the last 8 bytes of a 64-byte block.
  const padded = new Uint8Array(Math.ceil((total + 9) / 64) * 64);
  let at = 0;
  for (const p of parts) {
    padded.set(p, at);
    at += p.length;
  }
  padded[total] = 0x80;
  const high = Math.floor(total / 0x20000000);
  const low = (total * 8) >>> 0;
  for (let i = 0; i < 4; i += 1) {
    padded[padded.length - 8 + i] = (high >>> (24 - 8 * i)) & 0xff;
    padded[padded.length - 4 + i] = (low >>> (24 - 8 * i)) & 0xff;
  }
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = new Int32Array(80);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0, j = block; i < 16; i += 1, j += 4) w[i] = (padded[j]! << 24) | (padded[j + 1]! << 16) | (padded[j + 2]! << 8) | padded[j + 3]!;
    for (let i = 16; i < 80; i += 1) {
      const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i += 1) {
      let f: number;
      let k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}
