import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGitRunner, endGitChildren } from '../../lib/git/git-runner';
import { runGitSync } from '../../lib/git/git-sync';
import { startGitInOwnGroups } from '../../lib/git/process-tree';
import { tempDir } from '../support/temp-dirs';

// Issue 36, section 3: a hook that gives up on a hung git ends it with everything it started,
// even a child whose parent already left (re-parented, it is nobody's descendant any more, but
// it is still in the git's process group). The `git` here leaves such an orphan and hangs.
const HOOKS_DIR = join(__dirname, '..', '..', 'dist', 'hooks');
const posix = process.platform !== 'win32' ? describe : describe.skip;
let dir: string;
beforeEach(() => {
  dir = tempDir('capsule-git-groups-');
  // The subshell starts the orphan and exits at once; the script itself then hangs.
  writeFileSync(join(dir, 'git'), `#!/bin/sh\n(sleep 300 & echo $! >> "${join(dir, 'pids')}")\necho $$ >> "${join(dir, 'pids')}"\nexec sleep 301\n`);
  chmodSync(join(dir, 'git'), 0o755);
});
afterEach(() => {
  startGitInOwnGroups(false);
  for (const pid of pids()) {
    try {
      process.kill(pid, 'SIGKILL'); // only the processes this test's script started
    } catch {
      // gone, as expected
    }
  }
});

function pids(): number[] {
  return existsSync(join(dir, 'pids')) ? readFileSync(join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

/** Alive, and not a zombie waiting for a parent that never reaps it. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

const env = () => ({ ...process.env, PATH: `${dir}:${process.env.PATH}` });

posix('a hung git and the orphan it left', () => {
  it('are both ended when the call times out', async () => {
    startGitInOwnGroups();
    await expect(createGitRunner({ cwd: dir, env: env() }).run(['status'], { timeoutMs: 800 })).rejects.toMatchObject({ code: 'GIT_TIMEOUT' });
    expect(pids()).toHaveLength(2);
    await until(() => !pids().some(alive));
    expect(pids().filter(alive)).toEqual([]);
  });

  it('are both ended when the hook exits (endGitChildren)', async () => {
    startGitInOwnGroups();
    const call = createGitRunner({ cwd: dir, env: env() }).run(['status']);
    call.catch(() => undefined);
    await until(() => pids().length === 2);
    endGitChildren();
    await until(() => !pids().some(alive));
    expect(pids().filter(alive)).toEqual([]);
  });

  it('are both ended when a synchronous call times out (runGitSync)', async () => {
    startGitInOwnGroups();
    expect(() => runGitSync(['status'], { cwd: dir, env: env(), timeoutMs: 800 })).toThrow(expect.objectContaining({ code: 'GIT_TIMEOUT' }));
    await until(() => !pids().some(alive));
    expect(pids().filter(alive)).toEqual([]);
  });

  it('are both ended when the host stops the hook with SIGTERM', async () => {
    if (!existsSync(HOOKS_DIR)) throw new Error(`build first: ${HOOKS_DIR} is missing (npm test builds it)`);
    const repo = tempDir('capsule-git-groups-repo-');
    execFileSync('git', ['init', '-q', repo]); // the real git: the fake one is only on the hook's PATH
    const hook = spawn(process.execPath, [join(HOOKS_DIR, 'stop.js')], { cwd: repo, env: { ...env(), CAPSULE_STATE_DIR: join(repo, 'state') }, stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => hook.once('exit', (code) => resolve(code)));
    hook.stdin.end(JSON.stringify({ session_id: 's', transcript_path: join(repo, 't.jsonl'), cwd: repo, hook_event_name: 'Stop', stop_hook_active: false }));
    // The fake git hangs on the hook's first call.
    await until(() => pids().length >= 2);
    expect(pids().length).toBeGreaterThanOrEqual(2);
    hook.kill('SIGTERM');
    expect(await exited).toBe(0);
    await until(() => !pids().some(alive));
    expect(pids().filter(alive)).toEqual([]);
  }, 20_000);
});
