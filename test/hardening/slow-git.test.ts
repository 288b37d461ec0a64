import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_EVENTS } from '../../lib/hosts/claude/hook-events';
import { CODEX_HOOK_EVENTS } from '../../lib/hosts/codex/hook-events';
import type { HookEventName, HostEvents } from '../../lib/hosts/host';
import { hasOutputSchema, schemaErrors } from '../hosts/codex/codex-fixtures';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';

// Each built hook runs with a `git` on PATH that hangs, or answers only after a delay. The hook
// must exit 0 before the host's timeout for its event (hooks/hooks.json; hooks/codex-hooks.json
// under the Codex CLI, whose SessionEnd gets 3 s), with valid output (on Codex: output its
// event's schema accepts), and say why when it gave up. The hung git's pids are recorded so the
// test ends exactly those. The events with the long budget (7 s) spend it waiting on git, so
// under each host and git they run at the same time, each with its own repository, git and
// transcript; the short-budget ones (UserPromptSubmit, SessionEnd) run alone, as a host runs them.
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const HOOKS_DIR = join(__dirname, '..', '..', 'dist', 'hooks');

/** How each host runs the bundles: its timeouts, the hook's arguments, the payload fields it adds. */
const HOSTS: Record<string, { events: HostEvents; args: string[]; session: string; transcript: string; line: unknown; extra: Record<string, unknown> }> = {
  'Claude Code': { events: HOOK_EVENTS, args: [], session: 'session-slow', transcript: 'transcript.jsonl', line: { type: 'user', message: { role: 'user', content: 'hello' }, sessionId: 'session-slow' }, extra: {} },
  'the Codex CLI': {
    events: CODEX_HOOK_EVENTS,
    args: ['--host', 'codex'],
    session: '01a230d4-782a-72d0-ba84-41438a9184ed',
    transcript: 'rollout-2026-12-01T08-59-20-01a230d4-782a-72d0-ba84-41438a9184ed.jsonl',
    line: { timestamp: '2026-12-01T08:59:20.911Z', type: 'event_msg', payload: { type: 'item_completed', item: { type: 'UserMessage', id: 'u1', content: [{ type: 'text', text: 'hello' }] } } },
    extra: { model: 'gpt-5.5', turn_id: 't1', permission_mode: 'bypassPermissions' },
  },
};

const PAYLOAD_EXTRA: Record<HookEventName, Record<string, unknown>> = {
  SessionStart: { source: 'clear' },
  Stop: { last_assistant_message: 'done', stop_hook_active: false },
  PreCompact: { trigger: 'auto', custom_instructions: null },
  PostCompact: { trigger: 'auto', compact_summary: '<capsule-state>\nobjective: ship it\n</capsule-state>' },
  UserPromptSubmit: { prompt: 'next step please' },
  SessionEnd: { reason: 'other' },
};

let root: string;
/** One repository per event, each holding a capsule: hooks that run at once never share one. */
const repos = new Map<HookEventName, TestRepo>();
const wrappers: string[] = [];
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'capsule-slowgit-'));
  for (const event of Object.keys(PAYLOAD_EXTRA) as HookEventName[]) {
    const repo = makeTestRepo();
    await repo.withStore((store) => store.writeCapsule(capsuleDoc({ id: ulid(1) }), { now: new Date() }));
    repos.set(event, repo);
  }
});
afterAll(() => {
  // End only the wrapper processes this test started (their pids, recorded by the wrappers).
  for (const pid of wrappers.flatMap(recordedPids)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const repo of repos.values()) repo.cleanup();
  rmSync(root, { recursive: true, force: true });
});

/** A directory whose `git` hangs (`delaySec` null) or runs the real git after `delaySec` seconds; every pid it starts goes to its `pids` file. */
function gitWrapper(name: string, delaySec: number | null): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  wrappers.push(dir);
  const pids = join(dir, 'pids');
  // A hung git starts a child of its own (as an alias or a credential helper does); both pids are recorded.
  const body = delaySec === null ? `sleep 120 &\necho $! >> "${pids}"\nwait` : `sleep ${delaySec}\nexec "${REAL_GIT}" "$@"`;
  writeFileSync(join(dir, 'git'), `#!/bin/sh\necho $$ >> "${pids}"\n${body}\n`);
  chmodSync(join(dir, 'git'), 0o755);
  return dir;
}

/** The pids the wrapper in `dir` recorded: its own runs and what a hung one started. */
function recordedPids(dir: string): number[] {
  return existsSync(join(dir, 'pids')) ? readFileSync(join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

/** Alive, and not a zombie nobody reaps. */
function isAlive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

/** Runs the built hook for `event` in its repository, with the git in `pathDir` first on PATH and its transcript there too. */
function runHookEntry(host: string, event: HookEventName, pathDir: string): Promise<{ code: number | null; ms: number; stdout: string }> {
  if (!existsSync(HOOKS_DIR)) throw new Error(`build first: ${HOOKS_DIR} is missing (npm test builds it)`);
  const h = HOSTS[host]!;
  const repo = repos.get(event)!;
  const transcript = join(pathDir, h.transcript);
  writeFileSync(transcript, `${JSON.stringify(h.line)}\n`);
  const extra = event === 'SessionEnd' ? {} : h.extra;
  const input = JSON.stringify({ session_id: h.session, transcript_path: transcript, cwd: repo.dir, hook_event_name: event, ...extra, ...PAYLOAD_EXTRA[event] });
  const env = { ...repo.env, PATH: `${pathDir}:${repo.env.PATH}`, ...(h.args.length === 0 ? { CLAUDE_PROJECT_DIR: repo.dir } : {}) };
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [join(HOOKS_DIR, `${h.events[event]!.file}.js`), ...h.args], { cwd: repo.dir, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    // The host kills at its timeout; so does the test, and then reports it.
    const hostKill = setTimeout(() => child.kill('SIGKILL'), h.events[event]!.hostTimeoutSec * 1000 + 2000);
    child.on('close', (code) => {
      clearTimeout(hostKill);
      resolve({ code, ms: Date.now() - started, stdout });
    });
    child.stdin.end(input);
  });
}

describe.each(Object.keys(HOSTS).flatMap((host) => [
  [host, 'hangs', null],
  [host, 'answers after 3 s', 3],
] as const))('every hook under %s when git %s', (host, _what, delaySec) => {
  const events = HOSTS[host]!.events;
  const names = Object.keys(events) as HookEventName[];
  /** Runs the hook; with a hung git, also what of that git is still alive 3 s after the hook exited. */
  const run = async (event: HookEventName) => {
    const wrapper = gitWrapper(`${host === 'Claude Code' ? 'claude' : 'codex'}-${delaySec ?? 'hung'}-${event}`, delaySec);
    const r = await runHookEntry(host, event, wrapper);
    const mine = recordedPids(wrapper);
    if (delaySec === null) await waitFor(() => mine.every((pid) => !isAlive(pid)), 3000);
    return { r, pids: mine, alive: mine.filter(isAlive) };
  };
  // The long-budget hooks, started together; each test below checks its own.
  const long = new Map<HookEventName, ReturnType<typeof run>>();
  beforeAll(() => {
    for (const event of names.filter((e) => events[e]!.budgetMs >= 7000)) long.set(event, run(event));
    // Settled here so that a short-budget hook never runs beside them.
    return Promise.all(long.values());
  }, 60_000);

  jest.setTimeout(60_000);

  it.each(names)('%s exits 0 within the host timeout and its output is valid', async (event) => {
    const { r, pids, alive } = await (long.get(event) ?? run(event));
    expect(r.code).toBe(0);
    // Not vacuous: the hooks that touch the memory branch did run the slow git.
    if (event === 'Stop' || event === 'SessionStart' || event === 'PreCompact') expect(pids.length).toBeGreaterThan(0);
    expect(r.ms).toBeLessThan(events[event]!.hostTimeoutSec * 1000);
    // PreCompact may answer in plain text on Claude Code (a line for the summariser); JSON answers must parse.
    if (r.stdout.trim().startsWith('{')) {
      const answer = JSON.parse(r.stdout) as { systemMessage?: string };
      // A hook that gave up says so in one line with its code.
      if (answer.systemMessage !== undefined) expect(answer.systemMessage).toMatch(/\[[A-Z_]+\]/);
      if (HOSTS[host]!.args.length > 0) expect(schemaErrors(event, 'output', answer)).toBeNull();
    }
    // Codex: an event without an output schema gets nothing; anything else is JSON its schema accepts.
    if (HOSTS[host]!.args.length > 0 && !hasOutputSchema(event)) expect(r.stdout).toBe('');
    if (HOSTS[host]!.args.length > 0 && r.stdout !== '') expect(r.stdout.trim().startsWith('{')).toBe(true);
    // A hook that gave up on a hung git leaves nothing of it running: neither git nor what git started.
    if (delaySec === null) expect(alive).toEqual([]);
  });
});
