/**
 * Applies one git pack delta to its base: two sizes (base, result) as little-endian base-128
 * numbers, then instructions — a byte with the high bit set copies a range of the base (its low
 * 4 bits say which offset bytes follow, the next 3 which size bytes; size 0 means 0x10000), any
 * other non-zero byte inserts that many literal bytes. Throws on a delta that does not fit its base.
 */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = delta[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80 && at < delta.length);
    return value;
  };
  const baseSize = varint();
  if (baseSize !== base.length) throw new Error(`delta expects a base of ${baseSize} bytes, got ${base.length}`);
  const out = Buffer.allocUnsafe(varint());
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let i = 0; i < 4; i += 1) if (op & (1 << i)) offset += delta[at++]! * 2 ** (8 * i);
      for (let i = 0; i < 3; i += 1) if (op & (0x10 << i)) size += delta[at++]! * 2 ** (8 * i);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length || written + size > out.length) throw new Error('delta copy out of range');
      copyBytes(base, offset, size, out, written);
      written += size;
    } else if (op > 0) {
      if (at + op > delta.length || written + op > out.length) throw new Error('delta insert out of range');
      copyBytes(delta, at, op, out, written);
      at += op;
      written += op;
    } else {
      throw new Error('delta opcode 0 is reserved');
    }
  }
  if (written !== out.length) throw new Error(`delta wrote ${written} of ${out.length} bytes`);
  return out;
}

/**
 * Copies `size` bytes; a delta of two index shards is thousands of short copies, and
 * Buffer#copy's per-call cost (it is JavaScript around the native copy in node 20) would
 * dominate, so short runs are copied byte by byte and long ones with one native set().
 */
function copyBytes(from: Buffer, start: number, size: number, to: Buffer, at: number): void {
  if (size < 64) {
    for (let i = 0; i < size; i += 1) to[at + i] = from[start + i]!;
  } else {
    to.set(from.subarray(start, start + size) as unknown as Uint8Array, at);
  }
}
