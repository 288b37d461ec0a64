import { closeSync, openSync, readSync } from 'node:fs';
import { zlib } from './lazy-modules';
import { applyDelta } from './pack-delta';

/** An object as read from the object files: its type name and content. */
export interface RawObject {
  type: string;
  content: Buffer;
}

const TYPES = ['', 'commit', 'tree', 'blob', 'tag'];
const OFS_DELTA = 6;
const REF_DELTA = 7;
const IDX_MAGIC = 0xff744f63;

/**
 * One pack (`pack-<hash>.idx` + `.pack`, version 2 index), read with positioned reads: the
 * fan-out table once, then a binary search over the ids of one fan-out bucket, so a large
 * project pack costs a few small reads per object, never a whole-file read. Deltas are applied
 * here; a REF_DELTA base is looked up through `lookup` (any pack or loose object). Throws on
 * anything it does not understand (index v1, a truncated file): the caller falls back to git.
 */
export class PackFile {
  private idxFd: number | null = null;
  private packFd: number | null = null;
  private fanout: Uint32Array | null = null;
  private count = 0;
  private readonly cache = new Map<number, RawObject>();

  constructor(readonly idxPath: string) {}

  /** The object's offset in the pack, or null when this pack does not hold it. */
  find(oid: string): number | null {
    const fanout = this.loadFanout();
    const first = parseInt(oid.slice(0, 2), 16);
    let lo = first === 0 ? 0 : fanout[first - 1]!;
    let hi = fanout[first]!;
    const want = Buffer.from(oid, 'hex');
    const entry = Buffer.alloc(20);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      this.read(this.idxFd!, entry, 8 + 1024 + mid * 20);
      const cmp = entry.compare(want as unknown as Uint8Array);
      if (cmp === 0) return this.offsetOf(mid);
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    return null;
  }

  /** The object at `offset`, deltas resolved. */
  readAt(offset: number, lookup: (oid: string) => RawObject | null, depth = 0): RawObject {
    const cached = this.cache.get(offset);
    if (cached) return cached;
    if (depth > 64) throw new Error('delta chain too deep');
    const head = Buffer.alloc(32);
    const got = this.read(this.packFdOpen(), head, offset, true);
    let byte = head[0]!;
    const type = (byte >> 4) & 7;
    let size = byte & 15;
    let at = 1;
    for (let shift = 4; byte & 0x80; shift += 7) {
      byte = head[at++]!;
      size += (byte & 0x7f) * 2 ** shift;
    }
    let base: RawObject | null = null;
    if (type === OFS_DELTA) {
      byte = head[at++]!;
      let back = byte & 0x7f;
      while (byte & 0x80) {
        byte = head[at++]!;
        back = (back + 1) * 128 + (byte & 0x7f);
      }
      base = this.readAt(offset - back, lookup, depth + 1);
    } else if (type === REF_DELTA) {
      const baseOid = head.subarray(at, at + 20).toString('hex');
      at += 20;
      base = lookup(baseOid);
      if (base === null) throw new Error(`delta base ${baseOid} not found`);
    } else if (!TYPES[type]) {
      throw new Error(`unknown pack object type ${type}`);
    }
    if (at > got) throw new Error('truncated pack entry header');
    const data = this.inflateAt(offset + at, size);
    const object = base === null ? { type: TYPES[type]!, content: data } : { type: base.type, content: applyDelta(base.content, data) };
    this.cache.set(offset, object);
    return object;
  }

  close(): void {
    for (const fd of [this.idxFd, this.packFd]) if (fd !== null) closeSync(fd);
    this.idxFd = this.packFd = null;
  }

  private loadFanout(): Uint32Array {
    if (this.fanout) return this.fanout;
    this.idxFd = openSync(this.idxPath, 'r');
    const head = Buffer.alloc(8 + 1024);
    this.read(this.idxFd, head, 0);
    if (head.readUInt32BE(0) !== IDX_MAGIC || head.readUInt32BE(4) !== 2) throw new Error(`${this.idxPath}: not a version 2 pack index`);
    const fanout = new Uint32Array(256);
    for (let i = 0; i < 256; i += 1) fanout[i] = head.readUInt32BE(8 + i * 4);
    this.count = fanout[255]!;
    this.fanout = fanout;
    return fanout;
  }

  private offsetOf(index: number): number {
    const small = Buffer.alloc(4);
    const table = 8 + 1024 + this.count * 24;
    this.read(this.idxFd!, small, table + index * 4);
    const value = small.readUInt32BE(0);
    if ((value & 0x80000000) === 0) return value;
    const large = Buffer.alloc(8);
    this.read(this.idxFd!, large, table + this.count * 4 + (value & 0x7fffffff) * 8);
    return Number(large.readBigUInt64BE(0));
  }

  /** Inflates the zlib stream at `at` whose output is `size` bytes; reads more of the pack while the stream is cut short. */
  private inflateAt(at: number, size: number): Buffer {
    for (let want = size + 64; ; want *= 2) {
      const chunk = Buffer.allocUnsafe(want);
      const got = this.read(this.packFdOpen(), chunk, at, true);
      try {
        const out = zlib().inflateSync(chunk.subarray(0, got) as unknown as Uint8Array);
        if (out.length !== size) throw new Error(`pack entry inflates to ${out.length} bytes, not ${size}`);
        return out;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'Z_BUF_ERROR' || got < want) throw err;
      }
    }
  }

  private packFdOpen(): number {
    this.packFd ??= openSync(this.idxPath.replace(/\.idx$/, '.pack'), 'r');
    return this.packFd;
  }

  /** Reads `buf.length` bytes at `position` (fewer only at the end of the file, when `short` allows it). */
  private read(fd: number, buf: Buffer, position: number, short = false): number {
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf as unknown as Uint8Array, got, buf.length - got, position + got);
      if (n === 0) break;
      got += n;
    }
    if (got < buf.length && !short) throw new Error('unexpected end of pack file');
    return got;
  }
}
