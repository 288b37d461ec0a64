import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOOK_EVENTS, type HookEventName } from '../../lib/hosts/claude/hook-events';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';

// Each built hook runs with a `git` on PATH that hangs, or answers only after a delay. The hook
// must exit 0 before the host's timeout for its event (hooks/hooks.json), with valid output, and
// say why when it gave up. The hung git's pids are recorded so the test ends exactly those.
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const HOOKS_DIR = join(__dirname, '..', '..', 'dist', 'hooks');

const PAYLOAD_EXTRA: Record<HookEventName, Record<string, unknown>> = {
  SessionStart: { source: 'clear' },
  Stop: { last_assistant_message: 'done', stop_hook_active: false },
  PreCompact: { trigger: 'auto', custom_instructions: null },
  PostCompact: { trigger: 'auto', compact_summary: '<capsule-state>\nobjective: ship it\n</capsule-state>' },
  UserPromptSubmit: { prompt: 'next step please' },
  SessionEnd: { reason: 'other' },
};

let root: string;
let repo: TestRepo;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'capsule-slowgit-'));
  repo = makeTestRepo();
  await repo.withStore((store) => store.writeCapsule(capsuleDoc({ id: ulid(1) }), { now: new Date() }));
});
afterAll(() => {
  // End only the wrapper processes this test started (their pids, recorded by the wrapper).
  const pids = existsSync(join(root, 'pids')) ? readFileSync(join(root, 'pids'), 'utf8').split('\n').filter(Boolean) : [];
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  repo.cleanup();
  rmSync(root, { recursive: true, force: true });
});

/** A directory whose `git` hangs (`delaySec` null) or runs the real git after `delaySec` seconds. */
function gitWrapper(name: string, delaySec: number | null): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const body = delaySec === null ? 'exec sleep 120' : `sleep ${delaySec}\nexec "${REAL_GIT}" "$@"`;
  writeFileSync(join(dir, 'git'), `#!/bin/sh\necho $$ >> "${join(root, 'pids')}"\n${body}\n`);
  chmodSync(join(dir, 'git'), 0o755);
  return dir;
}

function runHookEntry(event: HookEventName, pathDir: string): Promise<{ code: number | null; ms: number; stdout: string }> {
  const transcript = join(root, 'transcript.jsonl');
  writeFileSync(transcript, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hello' }, sessionId: 'session-slow' })}\n`);
  const input = JSON.stringify({ session_id: 'session-slow', transcript_path: transcript, cwd: repo.dir, hook_event_name: event, ...PAYLOAD_EXTRA[event] });
  const env = { ...repo.env, PATH: `${pathDir}:${repo.env.PATH}`, CLAUDE_PROJECT_DIR: repo.dir };
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [join(HOOKS_DIR, `${HOOK_EVENTS[event].file}.js`)], { cwd: repo.dir, env, stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    // The host kills at its timeout; so does the test, and then reports it.
    const hostKill = setTimeout(() => child.kill('SIGKILL'), HOOK_EVENTS[event].hostTimeoutSec * 1000 + 2000);
    child.on('close', (code) => {
      clearTimeout(hostKill);
      resolve({ code, ms: Date.now() - started, stdout });
    });
    child.stdin.end(input);
  });
}

describe.each([
  ['hangs', null],
  ['answers after 3 s', 3],
])('every hook when git %s', (_what, delaySec) => {
  const calls = () => (existsSync(join(root, 'pids')) ? readFileSync(join(root, 'pids'), 'utf8').split('\n').filter(Boolean).length : 0);

  jest.setTimeout(60_000);

  it.each(Object.keys(HOOK_EVENTS) as HookEventName[])('%s exits 0 within the host timeout and its output is valid', async (event) => {
    if (!existsSync(HOOKS_DIR)) throw new Error(`build first: ${HOOKS_DIR} is missing (npm test builds it)`);
    const before = calls();
    const r = await runHookEntry(event, gitWrapper(`git-${delaySec ?? 'hung'}`, delaySec));
    expect(r.code).toBe(0);
    // Not vacuous: the hooks that touch the memory branch did run the slow git.
    if (event === 'Stop' || event === 'SessionStart' || event === 'PreCompact') expect(calls()).toBeGreaterThan(before);
    expect(r.ms).toBeLessThan(HOOK_EVENTS[event].hostTimeoutSec * 1000);
    // PreCompact may answer in plain text (a line for the summariser); JSON answers must parse.
    if (r.stdout.trim().startsWith('{')) {
      const answer = JSON.parse(r.stdout) as { systemMessage?: string };
      // A hook that gave up says so in one line with its code.
      if (answer.systemMessage !== undefined) expect(answer.systemMessage).toMatch(/\[[A-Z_]+\]/);
    }
  });
});
