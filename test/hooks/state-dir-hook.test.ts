import { chmodSync, chownSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { forgetTrustedDirs } from '../../lib/local-state/state-dir-trust';
import { runHook, type HookSpec } from '../../lib/hooks/run-hook';
import { tempDir } from '../support/temp-dirs';
import { makeTempRepo, payload, readErrorLog, type TempRepo } from './hook-fixtures';

// Issue 36, section 3: a hook whose runtime state dir fails the ~/.ssh-style check writes
// nothing there and fails open and loud: exit 0 (a normal outcome), one line, a coded log line
// where it can still write one (the plugin's own data folder).
const NOBODY = 65534;
const itAsRoot = typeof process.getuid === 'function' && process.getuid() === 0 ? it : it.skip;

describe('runHook and an unsafe runtime state dir', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = makeTempRepo();
    forgetTrustedDirs();
  });
  afterEach(() => repo.cleanup());

  itAsRoot('skips the handler with one STATE_DIR_UNSAFE line when the state dir sits in a 0777 folder another user owns', async () => {
    const shared = join(tempDir('capsule-shared-'), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    chownSync(shared, NOBODY, NOBODY);
    const pluginData = tempDir('capsule-plugin-data-');
    let calls = 0;
    const spec: HookSpec<'SessionStart'> = { event: 'SessionStart', handle: async () => void calls++ };
    const env = { ...repo.env, CAPSULE_STATE_DIR: join(shared, 'state'), CLAUDE_PLUGIN_DATA: pluginData };

    const out = await runHook(spec, { readStdin: async () => JSON.stringify(payload('SessionStart', { cwd: repo.dir })), env, now: () => new Date('2026-11-29T21:00:00Z'), cwd: repo.dir });
    expect(out.failCode).toBe('STATE_DIR_UNSAFE');
    expect(calls).toBe(0);
    expect(out.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(out.stdout).systemMessage).toMatch(/\[STATE_DIR_UNSAFE\]/);
    expect(readdirSync(shared)).toEqual([]);
    expect(readErrorLog(pluginData)[0]).toMatch(/^STATE_DIR_UNSAFE /);
  });
});
