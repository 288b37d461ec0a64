import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

// Files git-capsule reads that someone else wrote (a transcript, a project's declaration, our own
// runtime files) are opened non-blocking and used only when they are regular files: a FIFO named
// as `transcript_path` would block a synchronous open for ever (the hook's timer never fires),
// and a link to /dev/zero would be read without end. O_NONBLOCK and O_NOFOLLOW are 0 on Windows.
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// errno-style codes of the two refusals that are not the open's own.
const NOT_REGULAR = 'ENOTREG';
const TOO_BIG = 'ETOOBIG';

/** How a file is opened: through links or not. */
export interface OpenOptions {
  /** False: a link in the file's place is refused (ELOOP); our own runtime files are never read through one. */
  followLinks: boolean;
}

/**
 * Opens the regular file at `path` for reading without blocking; throws the open's error
 * (ENOENT, EACCES, ELOOP for a refused link) or one with code ENOTREG for a FIFO, a device or a
 * folder. The caller closes the descriptor.
 */
export function openRegularFile(path: string, opts: OpenOptions): number {
  return openRegular(path, opts).fd;
}

function openRegular(path: string, opts: OpenOptions): { fd: number; size: number } {
  const fd = openSync(path, constants.O_RDONLY | NONBLOCK | (opts.followLinks ? 0 : NOFOLLOW));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: NOT_REGULAR });
    return { fd, size: stat.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The text of the regular file at `path`, at most `maxBytes` of it (code ETOOBIG past that). Throws as `openRegularFile`. */
export function readRegularFile(path: string, opts: OpenOptions & { maxBytes?: number }): string {
  const { fd, size } = openRegular(path, opts);
  try {
    const max = opts.maxBytes ?? Number.MAX_SAFE_INTEGER;
    const chunks: Uint8Array[] = [];
    let total = 0;
    // The first read sized to the file, the next small, past a short one (the end): two fresh
    // 64 KiB buffers per read cost ~0.15 ms, and a hook reads several small runtime files. A file
    // that grows while it is read goes on in 64 KiB reads, up to the bound.
    for (let want = Math.min(size, max, 1 << 20) + 1; ; ) {
      const chunk = new Uint8Array(want);
      const n = readSync(fd, chunk, 0, want, null);
      if (n === 0) break;
      total += n;
      if (total > max) throw Object.assign(new Error(`${path} is over ${max} bytes`), { code: TOO_BIG });
      chunks.push(chunk.subarray(0, n));
      want = n < want ? 1024 : 1 << 16;
    }
    return Buffer.concat(chunks as unknown as readonly Uint8Array[]).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Reads `into.length` bytes of `fd` from `position` (fewer at the end of the file); returns how many. */
export function readFullyAt(fd: number, into: Uint8Array, position: number): number {
  let read = 0;
  while (read < into.length) {
    const n = readSync(fd, into, read, into.length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return read;
}
