import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_EVENTS } from '../../lib/hosts/claude/hook-events';
import type { HookEventName } from '../../lib/hosts/host';
import { DEFAULT_MEMORY_REF } from '../../lib/store/memory-format';
import { importCapsules } from '../support/bulk-capsules';
import { capsuleDoc, ulid } from '../support/capsule-doc';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';

// Issue 16, items 3 and 4, against the built hooks as the host runs them: each hostile input the
// second red-team round used to disable a hook (a 60 MB capsule, nested `[[[[` documents, a
// 630 KB prompt of unclosed tags, a FIFO as transcript_path, a declaration linked to /dev/zero, a
// turn of adversarial text for the redactor) costs every hook under 5 s, so the host's 10 s kill is
// never near, and the hook's work still happens. Time is the CPU time of the hook and every git
// process it waited for (bash's `time`): on this shared machine, at a load average of 20 to 40,
// wall time measures the other jobs; each run also has to finish inside the host's timeout.
const HOOKS = join(__dirname, '..', '..', 'dist', 'hooks');
const SESSION = '3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const LIMIT_MS = 5000;

interface Run {
  code: number | null;
  stdout: string;
  /** CPU milliseconds of the hook and the git processes it waited for. */
  ms: number;
  wallMs: number;
}

function runHook(repo: TestRepo, event: HookEventName, payload: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Run {
  const started = Date.now();
  const times = join(repo.dir, '..', `cpu-${event}-${started}.txt`);
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%U %S"; { time "$0" "$1" >&3 2>/dev/null; } 3>&1 2>"$2"', process.execPath, join(HOOKS, `${HOOK_EVENTS[event].file}.js`), times], {
    cwd: repo.dir,
    env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir, ...env },
    input: JSON.stringify({ session_id: SESSION, cwd: repo.dir, hook_event_name: event, ...payload }),
    encoding: 'utf8',
    timeout: HOOK_EVENTS[event].hostTimeoutSec * 1000,
    maxBuffer: 1 << 26,
  });
  const [user = NaN, sys = NaN] = readFileSync(times, 'utf8').trim().split(/\s+/).map(Number);
  if (process.env.HOSTILE_REPORT) process.stderr.write(`${event}: ${Math.round((user + sys) * 1000)} ms CPU, ${Date.now() - started} ms wall\n`);
  return { code: r.status, stdout: r.stdout, ms: (user + sys) * 1000, wallMs: Date.now() - started };
}

/** Replaces the document of capsule `id` on the memory branch with `text`, by plumbing (as a remote's commit would). */
function forgeDocument(repo: TestRepo, id: string, text: string): void {
  const index = join(repo.dir, '.git', 'forge-index');
  const env = { ...repo.env, GIT_INDEX_FILE: index };
  const git = (args: string[], input?: string) => execFileSync('git', args, { cwd: repo.dir, env, input, encoding: 'utf8', maxBuffer: 1 << 28 }).trim();
  const tip = git(['rev-parse', DEFAULT_MEMORY_REF]);
  const path = git(['ls-tree', '-r', '--name-only', tip]).split('\n').find((p) => p.includes(`${id}/`) && p.endsWith('/capsule.md'))!;
  const blob = git(['hash-object', '-w', '--stdin'], text);
  git(['read-tree', tip]);
  git(['update-index', '--cacheinfo', `100644,${blob},${path}`]);
  git(['update-ref', DEFAULT_MEMORY_REF, git(['commit-tree', git(['write-tree']), '-p', tip, '-m', 'forged by a remote']), tip]);
}

const turn = (text: string) =>
  `${JSON.stringify({ type: 'user', sessionId: SESSION, uuid: 'u1', timestamp: '2026-11-29T21:00:00.000Z', message: { role: 'user', content: text } })}\n` +
  `${JSON.stringify({ type: 'assistant', sessionId: SESSION, uuid: 'a1', timestamp: '2026-11-29T21:00:01.000Z', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: '/proj/after.ts', content: 'x' } }] } })}\n`;

describe('every hook on hostile inputs', () => {
  jest.setTimeout(180_000);
  let repo: TestRepo;
  beforeEach(() => {
    repo = makeTestRepo();
  });
  afterEach(() => repo.cleanup());

  it('resumes past a 60 MB capsule document another machine pushed, under 5 s', async () => {
    await repo.withStore((s) => s.writeCapsule(capsuleDoc({ id: ulid(2), created_at: '2026-11-29T19:00:00Z' }), { now: new Date() }));
    await repo.withStore((s) => s.writeCapsule(capsuleDoc({ id: ulid(1), created_at: '2026-11-29T20:00:00Z' }), { now: new Date() }));
    forgeDocument(repo, ulid(1), `---\nid: ${ulid(1)}\nobjective: "${'A'.repeat(60 * 1024 * 1024)}"\n---\n`);
    for (const source of ['clear', 'startup']) {
      const r = runHook(repo, 'SessionStart', { source });
      expect(r.code).toBe(0);
      expect(r.ms).toBeLessThan(LIMIT_MS);
      if (source === 'clear') expect(r.stdout).toContain(ulid(2)); // the older capsule is resumed
    }
  });

  it('resumes past deeply nested [[[[ documents, under 5 s', async () => {
    await repo.withStore((s) => s.writeCapsule(capsuleDoc({ id: ulid(19), created_at: '2026-10-01T00:00:00Z', status: 'paused' }), { now: new Date() }));
    importCapsules(repo.dir, repo.env, DEFAULT_MEMORY_REF, [
      { fields: { id: ulid(19), created_at: '2026-10-01T00:00:00Z', status: 'paused' } },
      { fields: { id: ulid(20), created_at: '2026-11-29T18:00:00Z' } },
      ...Array.from({ length: 6 }, (_, i) => ({ fields: { id: ulid(30 + i), created_at: `2026-11-29T19:0${i}:00Z` }, text: `---\nid: ${ulid(30 + i)}\nobjective: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n---\n` })),
    ]);
    const r = runHook(repo, 'SessionStart', { source: 'clear' });
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(LIMIT_MS);
    expect(r.stdout).toContain(ulid(20));
    expect(r.stdout).toContain('6x schema (YAML_TOO_COMPLEX)');
  });

  it('folds a 630 KB prompt of unclosed tags under 5 s, and the cursor moves past it', () => {
    const transcript = join(repo.dir, '..', 'tags.jsonl');
    const paste = '<task-notification><summary><status>permission to use '.repeat(Math.ceil((630 * 1024) / 56));
    writeFileSync(transcript, turn(paste));
    const first = runHook(repo, 'Stop', { transcript_path: transcript, stop_hook_active: false });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.ms).toBeLessThan(LIMIT_MS);
    const second = runHook(repo, 'Stop', { transcript_path: transcript, stop_hook_active: false });
    expect(second.ms).toBeLessThan(LIMIT_MS);
    expect(repo.git(['ls-tree', '-r', '--name-only', DEFAULT_MEMORY_REF])).toMatch(/capsule\.md/);
  });

  it('folds a turn of text shaped against the redactor under 5 s', () => {
    const transcript = join(repo.dir, '..', 'redactor.jsonl');
    const adversarial = [
      'token: "'.repeat(40_000),
      '-----BEGIN RSA PRIVATE KEY-----'.repeat(20_000),
      ('http://' + 'u:'.repeat(300) + '@').repeat(300),
      'password is '.repeat(40_000),
      'curl -u a:'.repeat(30_000),
      'x'.repeat(2_000_000),
    ].join('\n');
    writeFileSync(transcript, turn(adversarial));
    const r = runHook(repo, 'Stop', { transcript_path: transcript, stop_hook_active: false });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.ms).toBeLessThan(LIMIT_MS);
  });

  it.each(['Stop', 'PreCompact', 'SessionEnd', 'UserPromptSubmit'] as const)('%s with a FIFO as transcript_path exits 0 under 5 s', (event) => {
    const fifo = join(repo.dir, '..', 'transcript.fifo');
    execFileSync('mkfifo', [fifo]);
    const extra: Record<HookEventName, Record<string, unknown>> = {
      Stop: { stop_hook_active: false },
      PreCompact: { trigger: 'auto', custom_instructions: null },
      SessionEnd: { reason: 'other' },
      UserPromptSubmit: { prompt: 'next' },
      SessionStart: {},
      PostCompact: { trigger: 'auto', compact_summary: '' },
    };
    const r = runHook(repo, event, { transcript_path: fifo, ...extra[event] });
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(LIMIT_MS);
  });

  it('starts a session under 5 s when the lifecycle declaration links to /dev/zero and the coordination file is a FIFO', async () => {
    await repo.withStore((s) => s.writeCapsule(capsuleDoc({ id: ulid(5) }), { now: new Date() }));
    mkdirSync(join(repo.dir, '.capsule'));
    symlinkSync('/dev/zero', join(repo.dir, '.capsule', 'lifecycle-extension.json'));
    const fifo = join(repo.dir, '..', 'coordination.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = runHook(repo, 'SessionStart', { source: 'clear' }, { CAPSULE_COORDINATION_STATE: fifo });
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(LIMIT_MS);
    expect(r.stdout).toContain('LIFECYCLE-EXTENSION: declaration ignored');
    expect(r.stdout).toContain(ulid(5));
  });
});
