import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/temp-dirs';
import { makeTestRepo, type TestRepo } from '../../resume-runtime/repo';

// Issue 31, "Linux only, silently": the built SessionStart hook, run under a `codex` client the
// way Codex runs it (`$SHELL -lc "<command>"`), with /proc set aside for the hook
// (CAPSULE_PROCESS_TABLE): through ps it still keys the session on the client process, and
// with no process table at all (Windows) it keys on nothing, never on its parent shell.
const HOOK = join(__dirname, '..', '..', '..', 'dist', 'hooks', 'session-start.js');
const linux = process.platform === 'linux' ? describe : describe.skip;
let repo: TestRepo;
beforeEach(() => {
  repo = makeTestRepo();
});
afterEach(() => repo.cleanup());

/** Runs the hook under a script named `codex` through `sh -lc`; resolves with the client's pid once it exits. */
function runUnderCodex(table: string, state: string): Promise<number> {
  const dir = tempDir('capsule-codex-client-');
  writeFileSync(join(dir, 'codex'), `#!/bin/sh\n/bin/sh -lc "'${process.execPath}' '${HOOK}' --host codex"\n`);
  chmodSync(join(dir, 'codex'), 0o755);
  const payload = { session_id: '01a230d4-ff31-7f02-92f9-9a891df44a2c', transcript_path: join(dir, 'rollout.jsonl'), cwd: repo.dir, hook_event_name: 'SessionStart', model: 'gpt-5.5', permission_mode: 'default', source: 'startup' };
  const client = spawn(join(dir, 'codex'), [], { cwd: repo.dir, env: { ...repo.env, CAPSULE_STATE_DIR: state, CAPSULE_PROCESS_TABLE: table }, stdio: ['pipe', 'ignore', 'ignore'] });
  client.stdin.end(JSON.stringify(payload));
  return new Promise((resolve) => client.once('exit', () => resolve(client.pid!)));
}

const records = (state: string) => (existsSync(join(state, 'lineage')) ? readdirSync(join(state, 'lineage')).filter((f) => f.startsWith('codex-')) : []);

linux('Codex lineage in a hook without /proc', () => {
  it('keys the session on the codex client found through ps', async () => {
    if (!existsSync(HOOK)) throw new Error(`build first: ${HOOK} is missing (npm test builds it)`);
    const state = join(tempDir('capsule-state-'), 'state');
    const client = await runUnderCodex('ps', state);
    expect(records(state)).toEqual([`codex-${client}.json`]);
  }, 30_000);

  it('keys it on nothing where no process can be read, not on the hook\'s parent shell', async () => {
    if (!existsSync(HOOK)) throw new Error(`build first: ${HOOK} is missing (npm test builds it)`);
    const state = join(tempDir('capsule-state-'), 'state');
    await runUnderCodex('none', state);
    expect(existsSync(state)).toBe(true); // the hook ran and kept state
    expect(records(state)).toEqual([]);
  }, 30_000);
});
