import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { CapsuleError } from '../errors/capsule-error';
import type { TreeView } from './tree-bytes';
import { DEFAULT_GIT_TIMEOUT_MS, translateSpawnError, type GitRunner } from './git-runner';
import { childProcess } from './lazy-modules';

/** One object read by `git cat-file --batch`. */
export interface GitObject {
  oid: string;
  type: string;
  content: Buffer;
}

/** Reads objects by name (`<oid>`, `<rev>:<path>`, …): a `cat-file --batch`, or the files themselves (FileObjectReader). */
export interface ObjectReader {
  /** The object, or null when git would say it is missing. */
  read(name: string): Promise<GitObject | null>;
}

/** An object reader the store holds open: texts too, and a close. */
export interface StoreObjectReader extends ObjectReader {
  readText(name: string): Promise<string | null>;
  close(): Promise<void>;
  /** The tree's entries indexed, kept per tree id by readers that cache them. */
  treeView?(tree: GitObject): TreeView;
}

interface Pending {
  name: string;
  resolve: (o: GitObject | null) => void;
  reject: (e: Error) => void;
}

/**
 * A long-lived `git cat-file --batch`: many objects (by `<rev>:<path>` or oid) through one
 * process, in request order. A missing object reads as null. Errors: GIT_FAILED, GIT_TIMEOUT, GIT_MISSING.
 */
export class CatFileBatch implements StoreObjectReader {
  private child: ChildProcessWithoutNullStreams | null = null;
  private buffer = Buffer.alloc(0);
  private queue: Pending[] = [];
  private failure: Error | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly git: GitRunner, private readonly timeoutMs = DEFAULT_GIT_TIMEOUT_MS) {}

  /** Reads one object; null when git says it is missing. Names must not contain a newline. */
  read(name: string): Promise<GitObject | null> {
    if (name.includes('\n')) return Promise.reject(new CapsuleError('GIT_FAILED', `object name contains a newline: ${JSON.stringify(name)}`, { args: ['cat-file', '--batch'], exitCode: null, stderr: '' }));
    if (this.failure) return Promise.reject(this.failure);
    const child = this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ name, resolve, reject });
      this.arm();
      child.stdin.write(`${name}\n`);
    });
  }

  /** Reads the text of a blob, or null when missing. */
  async readText(name: string): Promise<string | null> {
    const obj = await this.read(name);
    return obj === null ? null : obj.content.toString('utf8');
  }

  /** Ends the process; pending reads fail. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (this.timer) clearTimeout(this.timer);
    if (!child) return;
    await new Promise<void>((resolve) => {
      child.once('close', () => resolve());
      child.stdin.end();
    });
  }

  /** Spawns the process now (it waits on stdin), so its start overlaps other work. */
  start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const args = ['cat-file', '--batch'];
    const child = childProcess().spawn('git', args, { cwd: this.git.cwd, env: this.git.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
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
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk] as unknown as Uint8Array[]);
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      const nl = this.buffer.indexOf(10);
      if (nl < 0) return;
      const header = this.buffer.subarray(0, nl).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(nl + 1);
        this.settle().resolve(null);
        continue;
      }
      const [oid, type, sizeText] = header.split(' ');
      const size = Number(sizeText);
      if (this.buffer.length < nl + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(nl + 1, nl + 1 + size) as unknown as Uint8Array);
      this.buffer = this.buffer.subarray(nl + 1 + size + 1);
      this.settle().resolve({ oid: oid!, type: type!, content });
    }
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
