import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './claude-client';
import { realClientDescribe } from './support/stream-session';

const run = promisify(execFile);
const AUTHORS = 5;
const CLIENTS_PER_AUTHOR = 2;
// 20 /clears per session is the measured run (TEAM_SIM_CLEARS=20, about 10 minutes on a loaded
// 2-core machine); the suite runs the floor, 3: after round 0's syncs every later author holds
// author 0's autosaves, so rounds 1 and 2 each clear beside other authors' active work (the
// ledger case reads the last round), and a session's third resume follows two of its own.
const CLEARS = Math.max(3, Number(process.env.TEAM_SIM_CLEARS ?? 3));
const HOOKS = join(REPO_ROOT, 'dist', 'hooks');
const CLI = join(REPO_ROOT, 'dist', 'git-capsule.js');
const BASE_ENV = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', TZ: 'UTC' };

/** A real payload (test/fixtures/claude/payloads/<name>.json), adapted to one session. */
function payload(name: string, fields: Record<string, unknown>): string {
  const base = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'claude', 'payloads', `${name}.json`), 'utf8')) as Record<string, unknown>;
  return JSON.stringify({ ...base, ...fields });
}

/** One client process of one author: a live process whose pid is its CLAUDE_PID, and the sessions it ran (its lineage). */
interface Client {
  author: number;
  name: string;
  clone: string;
  home: string;
  proc: ChildProcess;
  sessions: string[];
  turn: number;
}

let sessionCounter = 0;
function newSession(): string {
  sessionCounter += 1;
  return `0000${sessionCounter.toString(16).padStart(4, '0')}-0000-4000-8000-${Date.now().toString(16).padStart(12, '0').slice(-12)}`;
}

function transcriptOf(c: Client): string {
  return join(c.home, `${c.sessions[c.sessions.length - 1]}.jsonl`);
}

/** Runs one built hook bundle as Claude Code runs it: stdin payload, the client's environment. */
async function hook(c: Client, file: string, name: string, fields: Record<string, unknown> = {}): Promise<string> {
  const session = c.sessions[c.sessions.length - 1]!;
  const child = spawn(process.execPath, [join(HOOKS, `${file}.js`)], {
    cwd: c.clone,
    env: { ...BASE_ENV, HOME: c.home, CLAUDE_PID: String(c.proc.pid), CLAUDE_PROJECT_DIR: c.clone, CLAUDE_CODE_SESSION_ID: session },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stdin.end(payload(name, { session_id: session, transcript_path: transcriptOf(c), cwd: c.clone, ...fields }));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`${file} exited ${code}`);
  if (out.includes('systemMessage')) throw new Error(`${file} failed open: ${out}`);
  return out;
}

/** One turn of work in the session's transcript (the records Claude Code 2.1.332 writes), then Stop. */
async function work(c: Client, round: number): Promise<void> {
  c.turn += 1;
  const session = c.sessions[c.sessions.length - 1]!;
  const t = new Date().toISOString();
  const base = { isSidechain: false, cwd: c.clone, sessionId: session, timestamp: t, gitBranch: 'main' };
  const file = `${c.clone}/src/${c.name}-r${round}.ts`;
  const records = [
    { ...base, type: 'user', uuid: `u${c.turn}`, message: { role: 'user', content: `Build the ${c.name} feature further MARK-${c.name}-r${round}` } },
    { ...base, type: 'assistant', uuid: `w${c.turn}`, message: { id: `m${c.turn}`, role: 'assistant', content: [{ type: 'tool_use', id: `tw${c.turn}`, name: 'Write', input: { file_path: file, content: 'x\n' } }] } },
    { ...base, type: 'user', uuid: `wr${c.turn}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tw${c.turn}`, content: `File created successfully at: ${file}` }] } },
    { ...base, type: 'assistant', uuid: `d${c.turn}`, message: { id: `md${c.turn}`, role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
  ];
  appendFileSync(transcriptOf(c), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  await hook(c, 'stop', 'Stop');
}

/** `/clear`: SessionEnd(clear), a new session id, SessionStart(clear); returns the id of the capsule the resume loaded. */
async function clear(c: Client): Promise<{ loaded: string | null; text: string }> {
  await hook(c, 'session-end', 'SessionEnd.clear');
  c.sessions.push(newSession());
  writeFileSync(transcriptOf(c), '');
  const out = await hook(c, 'session-start', 'SessionStart.clear');
  const text = out === '' ? '' : ((JSON.parse(out) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '');
  return { loaded: /CAPSULE DATA \(every value[^\n]*\nid: "([0-9A-Z]{26})"/.exec(text)?.[1] ?? null, text };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...BASE_ENV, HOME: cwd }, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
}

async function sync(clone: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  await run(process.execPath, [CLI, 'sync', 'origin', '--quiet'], { cwd: clone, env: { ...BASE_ENV, HOME: clone } });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

// A simulated team on one remote: 5 authors, each with a clone and 2 concurrent client processes
// in it, 20 /clears per session with a turn of work before each, everyone syncing through one
// bare remote after every round. The built hooks run as Claude Code runs them (real payload
// shapes, CLAUDE_PID). No session may resume, and no session may consume, a capsule outside its
// own lineage.
realClientDescribe('a simulated team on one remote', () => {
  let root: string;
  const clients: Client[] = [];
  const resumes: Array<{ client: Client; loaded: string | null; text: string; round: number }> = [];
  const syncMs: number[][] = [];
  let packedBytes = 0;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'capsule-team-'));
    const remote = join(root, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    const seed = join(root, 'seed');
    execFileSync('git', ['init', '-q', '-b', 'main', seed]);
    git(seed, '-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '--allow-empty', '-m', 'initial');
    git(seed, 'push', '-q', remote, 'main');
    for (let a = 0; a < AUTHORS; a += 1) {
      const clone = join(root, `author${a}`);
      execFileSync('git', ['clone', '-q', remote, clone]);
      git(clone, 'config', 'user.name', `Author ${a}`);
      git(clone, 'config', 'user.email', `author${a}@example.com`);
      for (let k = 0; k < CLIENTS_PER_AUTHOR; k += 1) {
        const home = join(root, `home-${a}-${k}`);
        mkdirSync(home, { recursive: true });
        const c: Client = { author: a, name: `a${a}c${k}`, clone, home, proc: spawn('sleep', ['3600'], { stdio: 'ignore' }), sessions: [newSession()], turn: 0 };
        writeFileSync(transcriptOf(c), '');
        clients.push(c);
      }
    }
    await Promise.all(clients.map((c) => hook(c, 'session-start', 'SessionStart.startup')));
    for (let round = 0; round < CLEARS; round += 1) {
      // One author's two sessions work and clear at the same time, racing on one clone; the authors
      // take turns (ten hook processes at once would only measure a 2-core machine's queue).
      for (let a = 0; a < AUTHORS; a += 1) await Promise.all(clients.filter((c) => c.author === a).map((c) => work(c, round)));
      // The sync runs between the work and the /clears, so every clone that syncs after another
      // holds that author's still-active autosaves when its own sessions clear.
      const times: number[] = [];
      for (let a = 0; a < AUTHORS; a += 1) times.push(await sync(join(root, `author${a}`)));
      syncMs.push(times);
      for (let a = 0; a < AUTHORS; a += 1) {
        await Promise.all(clients.filter((c) => c.author === a).map(async (c) => resumes.push({ client: c, ...(await clear(c)), round })));
      }
    }
    // Everyone ends up with everything (two passes: the first author's clone fetches the others' last /clears in the second); then measure what the remote holds.
    for (let pass = 0; pass < 2; pass += 1) for (let a = 0; a < AUTHORS; a += 1) await sync(join(root, `author${a}`));
    // The remote keeps the published memory under refs/capsules/ (a sync publishes state, docs/sync.md).
    const published = git(remote, 'for-each-ref', '--format=%(refname)', 'refs/capsules');
    packedBytes = execFileSync('git', ['pack-objects', '--revs', '--stdout', '-q'], { cwd: remote, input: `${published}\n`, maxBuffer: 1 << 30 }).length;
    const last = syncMs[syncMs.length - 1]!;
    process.stderr.write(
      `team simulation: ${AUTHORS} authors x ${CLIENTS_PER_AUTHOR} sessions, ${CLEARS} clears each; memory ref packed ${packedBytes} bytes = ${Math.round(packedBytes / AUTHORS)} bytes per author-day; ` +
        `final round syncs ${last.map((t) => t.toFixed(0)).join(', ')} ms (median ${[...last].sort((x, y) => x - y)[Math.floor(last.length / 2)]!.toFixed(0)} ms)\n`,
    );
  }, 40 * 60_000);
  afterAll(() => {
    for (const c of clients) c.proc.kill('SIGKILL');
    if (root && !process.env.CAPSULE_E2E_KEEP) rmSync(root, { recursive: true, force: true });
  });

  let writers: Map<string, string> | undefined;
  /** Which client's lineage wrote a capsule: the client whose sessions include the session its commits name (the Capsule-Session trailer). */
  function ownerOf(capsuleId: string): Client | undefined {
    if (writers === undefined) {
      writers = new Map();
      // A sync publishes state, not each commit: the writer's session is the document's own session_id at the tip.
      const clone = join(root, 'author0');
      for (const path of git(clone, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules', 'capsules').split('\n').filter((p) => p.endsWith('/capsule.md'))) {
        const session = /^session_id: "?([^"\n]+)"?$/m.exec(git(clone, 'show', `refs/heads/capsules:${path}`))?.[1];
        const id = path.split('/').slice(-2)[0]!;
        if (session) writers.set(id, session);
      }
    }
    const session = writers.get(capsuleId);
    return clients.find((c) => session !== undefined && c.sessions.includes(session));
  }

  it('resumes something at every /clear', () => {
    expect(resumes).toHaveLength(AUTHORS * CLIENTS_PER_AUTHOR * CLEARS);
    expect(resumes.filter((r) => r.loaded === null)).toEqual([]);
  });

  it('never resumes a capsule of another lineage (0 cross-resumes)', () => {
    const cross = resumes.filter((r) => ownerOf(r.loaded!) !== r.client).map((r) => ({ client: r.client.name, round: r.round, loaded: r.loaded }));
    expect(cross).toEqual([]);
  });

  it("resumes each session's own newest work", () => {
    const stale = resumes.filter((r) => !r.text.includes(`MARK-${r.client.name}-r${r.round}`)).map((r) => ({ client: r.client.name, round: r.round }));
    expect(stale).toEqual([]);
  });

  it('never consumes a capsule outside its lineage (0)', () => {
    const clone = join(root, 'author0');
    const files = git(clone, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules').split('\n');
    const outside: string[] = [];
    let consumed = 0;
    for (const f of files.filter((p) => /\/status\/[^/]+-resumed$/.test(p))) {
      consumed += 1;
      const id = /\/([0-9A-Z]{26})\/status\//.exec(f)![1]!;
      const writer = f.split('/').pop()!.replace(/^\d{8}T\d{9}Z-/, '').replace(/-resumed$/, '');
      const owner = ownerOf(id);
      if (!owner || !owner.sessions.includes(writer)) outside.push(`${id} by ${writer}`);
    }
    expect(consumed).toBe(AUTHORS * CLIENTS_PER_AUTHOR * CLEARS);
    expect(outside).toEqual([]);
  });

  it("lists the other authors' capsules in the ledger, never selecting them", () => {
    // Author 0 syncs first in a round; every later author has fetched author 0's active autosaves.
    const last = resumes.filter((r) => r.round === CLEARS - 1 && r.client.author > 0);
    expect(last).toHaveLength((AUTHORS - 1) * CLIENTS_PER_AUTHOR);
    for (const r of last) expect(r.text).toMatch(/[1-9][0-9]*x other-author \(written by "author\d@example\.com, synced from machine m-/);
  });
});
