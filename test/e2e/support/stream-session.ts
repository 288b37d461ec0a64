import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { clientTmp, ensureClaudeClient, findHarness, loggedRequests, REPO_ROOT, type LoggedRequest } from '../claude-client';

/**
 * A driver for the real Claude Code client in its streaming mode: one long-lived
 * `claude -p --input-format stream-json --output-format stream-json --verbose` process per
 * session, against the harness's `fake-api.mjs` (test/harness/claude) on loopback, so two sessions can stay
 * alive at once in one repository and `/clear` runs inside the same client process (the same
 * `CLAUDE_PID`, a new session id), exactly as in an interactive terminal.
 *
 * ```ts
 * const h = await StreamHarness.start({ name: 'two-sessions', script: { rules: [...] } });
 * try {
 *   const a = h.session({ name: 'a' });
 *   const b = h.session({ name: 'b' });
 *   await a.send('A-EDIT write the parser');   // resolves on that turn's `result`
 *   await b.send('B-TEST run the suite');
 *   await a.clear();                          // `/clear`: SessionEnd(clear) → SessionStart(clear)
 *   await a.send('A-AFTER what now?');
 *   const req = h.requests().find((r) => r.text.includes('A-AFTER'));
 * } finally {
 *   await h.close();                          // ends every session, stops the fake API, removes the temp dir
 * }
 * ```
 *
 * What it sets up (as `run.sh` of the harness does): a temp folder `out` with `home/` (the
 * client's HOME), `repo/` (a git repository on `main` with one commit, identity
 * `harness@example.invalid`), the fake API's `requests.jsonl`, and per session
 * `<name>.stream.jsonl`, `<name>.err` and `<name>.debug.log`. The client gets only the
 * offline environment (temp HOME, `ANTHROPIC_BASE_URL` on 127.0.0.1, a fake key,
 * `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`), the plugin at the repository root through
 * `--plugin-dir`, and `--permission-mode acceptEdits --allowedTools Bash,Write,Edit,Read`.
 * When `unshare -n` works (root), the fake API and every client run in one network namespace
 * with only loopback (`nsenter` joins it), so nothing can reach the network.
 *
 * The fake API's rules match on the request (see the harness README §3): give each session's
 * prompts their own markers (`A-EDIT`, `B-TEST`) so one script serves both sessions.
 */
export class StreamHarness {
  /** The temp folder holding HOME, the repo and every log. */
  readonly out: string;
  /** The default repository sessions run in. */
  readonly repo: string;
  /** The default HOME of the client. */
  readonly home: string;
  private readonly sessions: StreamSession[] = [];

  private constructor(
    private readonly opts: StreamHarnessOptions,
    readonly port: number,
    private readonly fake: ChildProcess,
    private readonly netns: NetNamespace | null,
    out: string,
    private readonly bin: string,
  ) {
    this.out = out;
    this.repo = join(out, 'repo');
    this.home = join(out, 'home');
  }

  /**
   * Starts the fake API (with `script`: a rules object or a path to a rules file) in a fresh
   * temp folder, makes HOME and the repository, and returns the harness. Throws when the harness
   * or the client is missing (see `requireHarness`).
   */
  static async start(opts: StreamHarnessOptions): Promise<StreamHarness> {
    const harness = requireHarness();
    const bin = ensureClaudeClient();
    const out = mkdtempSync(join(tmpdir(), `capsule-stream-${opts.name}-`));
    mkdirSync(join(out, 'home'), { recursive: true });
    makeRepo(join(out, 'repo'));
    const scriptPath = join(out, 'fake-script.json');
    writeFileSync(scriptPath, typeof opts.script === 'string' ? readFileSync(opts.script, 'utf8') : JSON.stringify(opts.script, null, 2));
    const netns = opts.isolate === false ? null : openNetNamespace();
    const lifetime = String(opts.lifetimeSeconds ?? 1800);
    const fakeArgs = [join(harness, 'fake-api.mjs'), '--port', '0', '--port-file', join(out, 'port'), '--log', join(out, 'requests.jsonl'), '--lifetime', lifetime, '--script', scriptPath, ...(opts.responseDelayMs ? ['--delay-ms', String(opts.responseDelayMs)] : [])];
    const fake = spawnIn(netns, process.execPath, fakeArgs, { cwd: out, stdio: ['ignore', 'ignore', 'pipe'] });
    fake.stderr?.on('data', (d: Buffer) => appendFileSync(join(out, 'fake-api.err'), d.toString('utf8')));
    const port = await waitForPort(join(out, 'port'), fake);
    return new StreamHarness(opts, port, fake, netns, out, bin);
  }

  /**
   * Starts one client process (a session) in `cwd` (default: the harness repo). Each call is
   * a separate client process with its own `CLAUDE_PID`; `home` gives it its own HOME (another
   * user), `env` adds variables, `args` adds client flags (e.g. `['--autocompact', '100000']`).
   */
  session(opts: SessionOptions = {}): StreamSession {
    const name = opts.name ?? `s${this.sessions.length + 1}`;
    const [bin, ...args] = this.clientCommand({ name, pluginDir: opts.pluginDir, args: opts.args });
    const child = this.spawn(bin!, args, { cwd: opts.cwd ?? this.repo, env: this.clientEnv(opts), stdio: ['pipe', 'pipe', 'pipe'] });
    const session = new StreamSession(name, child, join(this.out, name), opts.turnTimeoutMs ?? this.opts.turnTimeoutMs ?? 120_000);
    this.sessions.push(session);
    return session;
  }

  /**
   * The offline environment a session's client gets (temp HOME, the fake API on loopback, a
   * fake key, no non-essential traffic), plus the harness's and `opts`' variables. For a
   * process that starts the client itself, such as `git capsule supervise`.
   */
  clientEnv(opts: { home?: string; env?: NodeJS.ProcessEnv } = {}): NodeJS.ProcessEnv {
    const home = opts.home ?? this.home;
    mkdirSync(home, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      // The client writes outside HOME too (claude-<uid>/, cc-socks/): keep that inside the session's folder.
      TMPDIR: clientTmp(this.out),
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${this.port}`,
      ANTHROPIC_API_KEY: 'sk-fake',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      ...this.opts.env,
      ...opts.env,
    };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
    return env;
  }

  /** The client's command line as a session runs it: the binary, stream-json both ways, the plugin, the harness's flags. */
  clientCommand(opts: { name: string; pluginDir?: string; args?: string[] }): string[] {
    return [
      this.bin,
      '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose',
      '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash,Write,Edit,Read',
      '--plugin-dir', opts.pluginDir ?? REPO_ROOT,
      '--debug-file', join(this.out, `${opts.name}.debug.log`),
      ...(this.opts.args ?? []),
      ...(opts.args ?? []),
    ];
  }

  /** Starts `cmd` inside the harness's loopback-only network namespace, when there is one. */
  spawn(cmd: string, args: string[], opts: Parameters<typeof spawn>[2]): ChildProcess {
    return spawnIn(this.netns, cmd, args, opts);
  }

  /** Every model request the fake API logged so far, in order. */
  requests(): LoggedRequest[] {
    return existsSync(join(this.out, 'requests.jsonl')) ? loggedRequests(this.out) : [];
  }

  /** The first request whose messages contain `marker` (each request carries the whole conversation so far). */
  firstRequestWith(marker: string): LoggedRequest | undefined {
    return this.requests().find((r) => r.text.includes(marker));
  }

  /**
   * Ends every session (closing stdin, then SIGTERM after `graceMs`), stops the fake API and
   * removes the temp folder, unless `CAPSULE_E2E_KEEP` is set (then it says where the logs are).
   */
  async close(graceMs = 20_000): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.close(graceMs).catch(() => undefined)));
    this.fake.kill('SIGTERM');
    this.netns?.close();
    if (process.env.CAPSULE_E2E_KEEP) process.stderr.write(`stream-session logs kept in ${this.out}\n`);
    else rmSync(this.out, { recursive: true, force: true });
  }
}

/** Options of `StreamHarness.start`. */
export interface StreamHarnessOptions {
  /** Names the temp folder. */
  name: string;
  /** The fake API's rules (`{ rules: [...] }`, harness README §3) or a path to such a file. */
  script: string | { rules: unknown[] };
  /** Added to every session's environment. */
  env?: NodeJS.ProcessEnv;
  /** Added to every session's client flags. */
  args?: string[];
  /** Per-turn timeout (default 120 s). */
  turnTimeoutMs?: number;
  /** The fake API exits by itself after this long (default 1800 s). */
  lifetimeSeconds?: number;
  /** false: do not run in a loopback-only network namespace even when possible. */
  isolate?: boolean;
  /** The fake API answers each model request this many ms late (a model's latency; default 0, at once). */
  responseDelayMs?: number;
}

/** Options of one session (one client process). */
export interface SessionOptions {
  name?: string;
  cwd?: string;
  home?: string;
  env?: NodeJS.ProcessEnv;
  args?: string[];
  /** Default: the repository root (this plugin). */
  pluginDir?: string;
  turnTimeoutMs?: number;
}

/** What one turn produced: its `result` line and every stream line since the turn was sent. */
export interface TurnResult {
  /** The session id the `result` names (after `/clear`, the new session's). */
  sessionId: string;
  result: Record<string, unknown>;
  lines: Array<Record<string, unknown>>;
}

/**
 * One live client process. `send` writes one user message and resolves when that turn's
 * `result` arrives; turns are queued, so `send` may be called again before the last resolved.
 * `sessionIds` lists every session id the stream named, oldest first (a new one after each
 * `/clear` or automatic compaction).
 */
export class StreamSession {
  /** Every stream-json line the client printed, in order. */
  readonly lines: Array<Record<string, unknown>> = [];
  readonly sessionIds: string[] = [];
  private buffer = '';
  private waiting: Array<{ resolve: (r: TurnResult) => void; reject: (e: Error) => void; from: number }> = [];
  private chain: Promise<unknown> = Promise.resolve();
  private exited: Promise<number | null>;
  private exitCode: number | null | undefined;

  constructor(readonly name: string, private readonly child: ChildProcess, private readonly logBase: string, private readonly turnTimeoutMs: number) {
    child.stdout!.setEncoding('utf8'); // a character split across two chunks stays whole
    child.stdout!.on('data', (d: string) => this.onData(d));
    child.stderr!.on('data', (d: Buffer) => appendFileSync(`${logBase}.err`, d.toString('utf8')));
    this.exited = new Promise((resolveExit) => {
      child.on('exit', (code) => {
        this.exitCode = code;
        for (const w of this.waiting.splice(0)) w.reject(new Error(`session ${name}: the client exited (code ${code}) before the turn's result; see ${logBase}.err`));
        resolveExit(code);
      });
    });
  }

  /** The client's process id: the `CLAUDE_PID` its hooks see. */
  get pid(): number {
    return this.child.pid!;
  }

  /** The current session id (the last one the stream named), or undefined before the first turn. */
  get sessionId(): string | undefined {
    return this.sessionIds[this.sessionIds.length - 1];
  }

  /** Sends one user turn (queued after any turn still running) and resolves on its `result`. */
  send(text: string): Promise<TurnResult> {
    const turn = this.chain.then(() => this.sendNow(text));
    this.chain = turn.catch(() => undefined);
    return turn;
  }

  /** Sends `/clear`: the client ends this session (SessionEnd `clear`) and starts a new one (SessionStart `clear`). */
  clear(): Promise<TurnResult> {
    return this.send('/clear');
  }

  /** Closes stdin and waits for the client to exit (SessionEnd `other` runs); SIGTERM after `graceMs`. */
  async close(graceMs = 20_000): Promise<number | null> {
    await this.chain;
    if (this.exitCode !== undefined) return this.exitCode;
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private sendNow(text: string): Promise<TurnResult> {
    if (this.exitCode !== undefined) return Promise.reject(new Error(`session ${this.name}: the client already exited (code ${this.exitCode})`));
    return new Promise<TurnResult>((resolveTurn, rejectTurn) => {
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w.resolve !== done);
        rejectTurn(new Error(`session ${this.name}: no result within ${this.turnTimeoutMs} ms for ${JSON.stringify(text.slice(0, 60))}; see ${this.logBase}.err`));
      }, this.turnTimeoutMs);
      const done = (r: TurnResult) => {
        clearTimeout(timer);
        resolveTurn(r);
      };
      this.waiting.push({ resolve: done, reject: (e) => (clearTimeout(timer), rejectTurn(e)), from: this.lines.length });
      this.child.stdin!.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`);
    });
  }

  private onData(d: string): void {
    appendFileSync(`${this.logBase}.stream.jsonl`, d);
    this.buffer += d;
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const raw = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        continue; // the client prints only JSON lines here; anything else is noise
      }
      this.lines.push(line);
      const sid = line.session_id;
      if (typeof sid === 'string' && sid !== this.sessionId) this.sessionIds.push(sid);
      if (line.type === 'result') {
        const w = this.waiting.shift();
        w?.resolve({ sessionId: String(sid), result: line, lines: this.lines.slice(w.from) });
      }
    }
  }
}

/**
 * The Claude Code harness folder (test/harness/claude, or the CAPSULE_HARNESS_DIR override), or
 * a thrown one-line reason when the override holds none.
 */
export function requireHarness(): string {
  const harness = findHarness();
  if (harness === null) throw new Error(`CAPSULE_HARNESS_DIR=${process.env.CAPSULE_HARNESS_DIR} holds no run.sh (unset it to use test/harness/claude)`);
  if (!existsSync(join(harness, 'fake-api.mjs'))) throw new Error(`${harness} has no fake-api.mjs`);
  return harness;
}

/** `describe` for a real-client suite; when the harness is not there, one failing test that says why (never a skip). */
export function realClientDescribe(name: string, fn: () => void): void {
  if (findHarness() !== null) describe(name, fn);
  else describe(name, () => it('has the real-client harness', () => void requireHarness()));
}

/**
 * The resume block a SessionStart hook injected into a logged request (`LoggedRequest.text`, the
 * JSON of its messages), decoded back to the text the hook printed; '' when there is none.
 */
export function resumeBlockIn(text: string): string {
  const start = text.indexOf('SessionStart hook additional context: === GIT-CAPSULE RESUME');
  const end = text.indexOf('=== END OF GIT-CAPSULE RESUME ===', start);
  if (start === -1 || end === -1) return '';
  // Both ends lie on plain characters of one JSON string, so the slice decodes as a string.
  return JSON.parse(`"${text.slice(start, end)}"`) as string;
}

/** A loopback-only network namespace held open by a sleeping process, joined with nsenter. */
interface NetNamespace {
  pid: number;
  close(): void;
}

function openNetNamespace(): NetNamespace | null {
  const probe = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
  if (probe.status !== 0 || spawnSync('nsenter', ['--version'], { stdio: 'ignore' }).status !== 0) return null;
  const holder = spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up && echo up && exec sleep 100000'], { stdio: ['ignore', 'pipe', 'ignore'] });
  // The holder execs sleep in the new namespace: its pid is the namespace to join.
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const ns = spawnSync('readlink', [`/proc/${holder.pid}/ns/net`], { encoding: 'utf8' }).stdout.trim();
    const mine = spawnSync('readlink', ['/proc/self/ns/net'], { encoding: 'utf8' }).stdout.trim();
    const cmd = spawnSync('cat', [`/proc/${holder.pid}/comm`], { encoding: 'utf8' }).stdout.trim();
    if (ns !== '' && ns !== mine && cmd === 'sleep') return { pid: holder.pid!, close: () => holder.kill('SIGKILL') };
    spawnSync('sleep', ['0.05']);
  }
  holder.kill('SIGKILL');
  return null;
}

/** Spawns `cmd` inside the namespace (nsenter execs it, so the child's pid is the command's own). */
function spawnIn(ns: NetNamespace | null, cmd: string, args: string[], opts: Parameters<typeof spawn>[2]): ChildProcess {
  return ns === null ? spawn(cmd, args, opts) : spawn('nsenter', ['-t', String(ns.pid), '-n', cmd, ...args], opts);
}

async function waitForPort(file: string, fake: ChildProcess): Promise<number> {
  for (let i = 0; i < 200; i++) {
    if (fake.exitCode !== null) break;
    const text = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    if (text !== '') return Number(text);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the fake API did not start (see ${resolve(file, '..', 'fake-api.err')})`);
}

/** A repository as run.sh makes one: `main`, a fixed identity, one commit. */
export function makeRepo(dir: string, identity: { name: string; email: string } = { name: 'harness', email: 'harness@example.invalid' }): string {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', identity.email);
  git('config', 'user.name', identity.name);
  if (!existsSync(join(dir, 'README.md'))) writeFileSync(join(dir, 'README.md'), '# scratch repo\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return dir;
}
