import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { CapsuleError } from '../errors/capsule-error';
import { DEFAULT_GIT_TIMEOUT_MS, gitSpawnGroup, releaseGitChild, translateSpawnError, trackGitChild, type GitRunner } from './git-runner';
import { childProcess } from './lazy-modules';

/** One object read by `git cat-file --batch`. */
export interface GitObject {
  oid: string;
  type: string;
  /** The object's size, from git's header (known before a byte of it is read); set by readers that bound a read. */
  size?: number;
  /** The object, or, when it is over the read's `maxBytes`, its first `maxBytes` bytes. */
  content: Buffer;
  /** True when `content` is only the start: the object was over the read's `maxBytes`. */
  truncated?: boolean;
}

/** Bounds of one read. */
export interface ReadOptions {
  /**
   * Keep at most this many bytes of the object (default DEFAULT_MAX_OBJECT_BYTES); the rest is
   * passed over as it streams, never held, so a hostile 60 MB blob costs its transfer, not a copy.
   */
  maxBytes?: number;
}

/** No object git-capsule reads is near this; past it an object is never held whole. */
export const DEFAULT_MAX_OBJECT_BYTES = 32 * 1024 * 1024;
/** A header line (`<oid> <type> <size>`) is far shorter; longer output is not cat-file's. */
const MAX_HEADER_BYTES = 4096;

/** Reads objects by name (`<oid>`, `<rev>:<path>`, …): the long-lived `cat-file --batch` below. */
export interface ObjectReader {
  /** The object, or null when git would say it is missing. */
  read(name: string, opts?: ReadOptions): Promise<GitObject | null>;
}

/** An object reader the store holds open: texts too, and a close. */
export interface StoreObjectReader extends ObjectReader {
  readText(name: string, opts?: ReadOptions): Promise<string | null>;
  close(): Promise<void>;
}

interface Pending {
  name: string;
  maxBytes: number;
  resolve: (o: GitObject | null) => void;
  reject: (e: Error) => void;
}

/** The object being received: its header, what of it is kept, and how many bytes are still due. */
interface Receiving {
  oid: string;
  type: string;
  size: number;
  /** Bytes of content and the trailing newline still to come. */
  remaining: number;
  keep: number;
  parts: Buffer[];
}

/**
 * A long-lived `git cat-file --batch`: many objects (by `<rev>:<path>` or oid) through one
 * process, in request order. A missing object reads as null. Errors: GIT_FAILED, GIT_TIMEOUT, GIT_MISSING.
 */
export class CatFileBatch implements StoreObjectReader {
  private child: ChildProcessWithoutNullStreams | null = null;
  // Output is taken as it arrives, never by concatenating a growing buffer (quadratic in an
  // object's size): header bytes until a newline, then the object's bytes into `receiving`.
  private headerParts: Buffer[] = [];
  private headerBytes = 0;
  private receiving: Receiving | null = null;
  private queue: Pending[] = [];
  private failure: Error | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly git: GitRunner, private readonly timeoutMs = DEFAULT_GIT_TIMEOUT_MS) {}

  /** Reads one object; null when git says it is missing. Names must not contain a newline. */
  read(name: string, opts: ReadOptions = {}): Promise<GitObject | null> {
    if (name.includes('\n')) return Promise.reject(new CapsuleError('GIT_FAILED', `object name contains a newline: ${JSON.stringify(name)}`, { args: ['cat-file', '--batch'], exitCode: null, stderr: '' }));
    if (this.failure) return Promise.reject(this.failure);
    const child = this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ name, maxBytes: opts.maxBytes ?? DEFAULT_MAX_OBJECT_BYTES, resolve, reject });
      this.arm();
      this.request(child, name);
    });
  }

  // Requests made in one tick (a tip and its FORMAT, a group of documents) go to git in one
  // write: a pipe write that wakes git is a system call and a context switch each, ~0.2 ms of
  // CPU apiece on a loaded machine (46 of them in one resume, measured). Order is kept.
  private unsent: string[] = [];
  private request(child: ChildProcessWithoutNullStreams, name: string): void {
    this.unsent.push(`${name}\n`);
    if (this.unsent.length > 1) return;
    queueMicrotask(() => this.flush(child));
  }

  private flush(child: ChildProcessWithoutNullStreams): void {
    if (this.unsent.length === 0) return;
    const lines = this.unsent.join('');
    this.unsent = [];
    child.stdin.write(lines);
  }

  /** Reads the text of a blob (its first `maxBytes` when over), or null when missing. */
  async readText(name: string, opts: ReadOptions = {}): Promise<string | null> {
    const obj = await this.read(name, opts);
    return obj === null ? null : obj.content.toString('utf8');
  }

  /**
   * Ends the process: closes its input, so it exits once it has answered what was asked (pending
   * reads fail after that), and resolves when it has. From the moment its input is closed, the
   * process is no longer one a hook must wait for or end with a tree walk (releaseGitChild).
   */
  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (this.timer) clearTimeout(this.timer);
    if (!child) return;
    this.flush(child); // a read asked in this very tick is still answered before git exits
    await new Promise<void>((resolve) => {
      child.once('close', () => resolve());
      child.stdin.end();
      releaseGitChild(child);
    });
  }

  /** Spawns the process now (it waits on stdin), so its start overlaps other work. */
  start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const args = ['cat-file', '--batch'];
    const group = gitSpawnGroup();
    const child = childProcess().spawn('git', args, { cwd: this.git.cwd, env: this.git.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, ...group });
    trackGitChild(child, group);
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.stdout.on('data', (b: Buffer) => this.onData(b));
    child.stdin.on('error', () => undefined);
    child.on('error', (e: NodeJS.ErrnoException) => this.fail(translateSpawnError(e, args, this.git.cwd)));
    child.on('close', (code) => {
      if (this.queue.length > 0 && /not a git repository/i.test(stderr)) {
        this.fail(new CapsuleError('NOT_A_REPO', `${this.git.cwd} is not inside a git repository; run git-capsule from a project checkout (or git init first)`, { cwd: this.git.cwd, stderr }));
      } else if (this.queue.length > 0) {
        this.fail(new CapsuleError('GIT_FAILED', `git cat-file --batch exited with ${code} while reading: ${stderr.trim() || 'no message'}`, { args, exitCode: code, stderr }));
      }
      if (this.child === child) this.child = null;
    });
    this.child = child;
    return child;
  }

  private onData(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.receiving === null) {
        const nl = chunk.indexOf(10, at);
        if (nl < 0) {
          this.headerParts.push(chunk.subarray(at));
          this.headerBytes += chunk.length - at;
          if (this.headerBytes > MAX_HEADER_BYTES) this.protocolError('a header line longer than 4 KiB');
          return;
        }
        this.headerParts.push(chunk.subarray(at, nl));
        const header = Buffer.concat(this.headerParts as unknown as Uint8Array[]).toString('utf8');
        this.headerParts = [];
        this.headerBytes = 0;
        at = nl + 1;
        if (!this.onHeader(header)) return;
        continue;
      }
      const r = this.receiving;
      const take = Math.min(r.remaining, chunk.length - at);
      const offset = r.size + 1 - r.remaining; // where in the object this slice starts
      if (offset < r.keep) r.parts.push(chunk.subarray(at, at + Math.min(take, r.keep - offset)));
      r.remaining -= take;
      at += take;
      if (r.remaining === 0) {
        this.receiving = null;
        // One copy of what is kept (the parts are views of pipe chunks, which must not stay alive).
        const content = Buffer.concat(r.parts as unknown as Uint8Array[], Math.min(r.keep, r.size));
        this.settle().resolve({ oid: r.oid, type: r.type, size: r.size, content, truncated: r.size > r.keep });
      }
    }
  }

  /** Takes one header line; false when reading must stop (a protocol error failed the batch). */
  private onHeader(header: string): boolean {
    const head = this.queue[0];
    if (!head) {
      this.protocolError(`output nobody asked for: ${JSON.stringify(header.slice(0, 80))}`);
      return false;
    }
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      this.settle().resolve(null);
      return true;
    }
    const [oid, type, sizeText] = header.split(' ');
    const size = Number(sizeText);
    if (!oid || !type || !Number.isSafeInteger(size) || size < 0) {
      this.protocolError(`an unreadable header ${JSON.stringify(header.slice(0, 80))}`);
      return false;
    }
    this.receiving = { oid, type, size, remaining: size + 1, keep: Math.min(size, head.maxBytes), parts: [] };
    return true;
  }

  private protocolError(what: string): void {
    this.fail(new CapsuleError('GIT_FAILED', `git cat-file --batch sent ${what}`, { args: ['cat-file', '--batch'], exitCode: null, stderr: '' }));
    this.child?.kill('SIGKILL');
  }

  private settle(): Pending {
    const head = this.queue.shift()!;
    this.arm();
    return head;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.fail(new CapsuleError('GIT_TIMEOUT', `git cat-file --batch did not answer within ${this.timeoutMs} ms`, { args: ['cat-file', '--batch'], timeoutMs: this.timeoutMs }));
      this.child?.kill('SIGKILL');
    }, this.timeoutMs);
  }

  private fail(e: Error): void {
    this.failure = e;
    const queue = this.queue;
    this.queue = [];
    for (const p of queue) p.reject(e);
  }
}
