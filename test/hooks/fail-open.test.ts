import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOOK_EVENTS } from '../../lib/hosts/claude/hook-events';
import type { HookEventName } from '../../lib/hosts/host';
import { hookTimedOut } from '../support/hook-timeout';
import { makeTempRepo, payload, readErrorLog, turnRecords, type TempRepo } from './hook-fixtures';

const DIST = join(__dirname, '..', '..', 'dist', 'hooks');
const EVENTS = Object.keys(HOOK_EVENTS) as HookEventName[];
/** Hooks that open the memory branch on every call (UserPromptSubmit never runs git). */
const STORE_HOOKS: HookEventName[] = ['SessionStart', 'Stop', 'PreCompact', 'PostCompact', 'SessionEnd'];

/**
 * Runs a built hook bundle as the host does: node, stdin, env; never through a shell. Once more
 * after a HOOK_TIMEOUT (test/support/hook-timeout.ts): SessionEnd met the missing git after
 * ~0.2-0.3 s of its 1 s at load 4, so a loaded machine can pass the budget before the code under test.
 */
function runBundle(event: HookEventName, stdin: string, env: NodeJS.ProcessEnv, cwd: string) {
  const run = () => spawnSync(process.execPath, [join(DIST, `${HOOK_EVENTS[event].file}.js`)], { input: stdin, env, cwd, encoding: 'utf8', timeout: 30_000 });
  let r = run();
  if (hookTimedOut(r.status, r.stdout)) r = run();
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The answer must be nothing, or exactly one line of JSON with a one-line systemMessage. */
function expectFailOpen(r: { status: number | null; stdout: string }): string | undefined {
  expect(r.status).toBe(0);
  if (r.stdout === '') return undefined;
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  const answer = JSON.parse(lines[0]!);
  expect(Object.keys(answer)).toEqual(['systemMessage']);
  return answer.systemMessage;
}

describe('hook bundles fail open', () => {
  let repo: TempRepo;
  let transcript: string;
  beforeEach(() => {
    repo = makeTempRepo();
    // One turn with a file edit, so every hook that saves has something to save.
    transcript = join(repo.dir, '..', 'transcript.jsonl');
    writeFileSync(transcript, turnRecords({ cwd: repo.dir, n: 1, write: `${repo.dir}/a.ts` }));
  });
  afterEach(() => repo.cleanup());

  const input = (event: HookEventName, extra: Record<string, unknown> = {}) =>
    JSON.stringify(payload(event, { cwd: repo.dir, transcript_path: transcript, ...extra }));

  it.each(EVENTS)('%s: stdin that is not JSON exits 0 with a systemMessage and a coded log line', (event) => {
    const message = expectFailOpen(runBundle(event, '{"session_id": ', repo.env, repo.dir));
    expect(message).toContain('HOOK_INPUT_NOT_JSON');
    expect(readErrorLog(repo.stateDir).at(-1)).toMatch(/^HOOK_INPUT_NOT_JSON /);
  });

  it.each(EVENTS)('%s: a field of the wrong type exits 0 with HOOK_INPUT_INVALID', (event) => {
    const message = expectFailOpen(runBundle(event, input(event, { hook_event_name: 7 }), repo.env, repo.dir));
    expect(message).toContain('HOOK_INPUT_INVALID');
    expect(readErrorLog(repo.stateDir).at(-1)).toMatch(/^HOOK_INPUT_INVALID .*hook_event_name/);
  });

  it.each(STORE_HOOKS)('%s: git missing from PATH exits 0 with GIT_MISSING logged', (event) => {
    const message = expectFailOpen(runBundle(event, input(event), { ...repo.env, PATH: '/nonexistent' }, repo.dir));
    expect(message).toContain('GIT_MISSING');
    expect(readErrorLog(repo.stateDir).at(-1)).toMatch(/^GIT_MISSING /);
  });

  it('UserPromptSubmit: git missing from PATH exits 0 and says nothing', () => {
    const r = runBundle('UserPromptSubmit', input('UserPromptSubmit'), { ...repo.env, PATH: '/nonexistent' }, repo.dir);
    expect(r).toMatchObject({ status: 0, stdout: '' });
  });

  it.each(STORE_HOOKS)('%s: a repository git cannot read exits 0 with a systemMessage and a coded log line', (event) => {
    rmSync(join(repo.dir, '.git', 'objects'), { recursive: true, force: true });
    writeFileSync(join(repo.dir, '.git', 'HEAD'), 'garbage\n');
    const message = expectFailOpen(runBundle(event, input(event), repo.env, repo.dir));
    expect(message).toMatch(/\[[A-Z_]+\]/);
    expect(readErrorLog(repo.stateDir).at(-1)).toMatch(/^[A-Z_]+ /);
  });

  // SessionStart only reads: to the store a ref whose commit is missing is no memory branch, so it stays silent.
  it.each(['Stop', 'PreCompact', 'PostCompact', 'SessionEnd'] as const)('%s: a memory ref pointing at a missing object exits 0 with a coded log line', (event) => {
    writeFileSync(join(repo.dir, '.git', 'refs', 'heads', 'capsules'), `${'0123456789abcdef'.repeat(2)}01234567\n`);
    const message = expectFailOpen(runBundle(event, input(event), repo.env, repo.dir));
    expect(message).toMatch(/\[[A-Z_]+\]/);
    expect(readErrorLog(repo.stateDir).at(-1)).toMatch(/^[A-Z_]+ /);
  });

  it('UserPromptSubmit: a corrupt repository exits 0 and says nothing', () => {
    rmSync(join(repo.dir, '.git', 'objects'), { recursive: true, force: true });
    writeFileSync(join(repo.dir, '.git', 'HEAD'), 'garbage\n');
    expect(runBundle('UserPromptSubmit', input('UserPromptSubmit'), repo.env, repo.dir)).toMatchObject({ status: 0, stdout: '' });
  });

  it.each(EVENTS)('%s: CAPSULE_DISABLED passes through without reading anything', (event) => {
    const r = runBundle(event, 'not json', { ...repo.env, CAPSULE_DISABLED: '1' }, repo.dir);
    expect(r).toMatchObject({ status: 0, stdout: '' });
    expect(readErrorLog(repo.stateDir)).toEqual([]);
  });
});
