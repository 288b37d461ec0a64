import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatFileBatch } from '../../lib/git/cat-file-batch';
import { createGitRunner, endGitChildren } from '../../lib/git/git-runner';
import { descendantsOf } from '../../lib/git/process-tree';

// Issue 16, item 8: a git we give up on is ended with everything it started. The `git` here is a
// script that starts a child of its own (as an alias or a credential helper does) and waits.
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'capsule-git-children-'));
  writeFileSync(join(dir, 'git'), `#!/bin/sh\nsleep 300 &\necho $! >> "${join(dir, 'pids')}"\necho $$ >> "${join(dir, 'pids')}"\nwait\n`);
  chmodSync(join(dir, 'git'), 0o755);
});
afterEach(() => {
  for (const pid of pids()) {
    try {
      process.kill(pid, 'SIGKILL'); // only the processes this test's script started
    } catch {
      // gone, as expected
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

function pids(): number[] {
  return existsSync(join(dir, 'pids')) ? readFileSync(join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

/** Alive, and not a zombie waiting for a parent that never reaps it. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

const runner = () => createGitRunner({ cwd: dir, env: { ...process.env, PATH: `${dir}:${process.env.PATH}` } });

describe('git children', () => {
  it('ends a git that timed out together with the process it started', async () => {
    const call = runner().run(['status'], { timeoutMs: 1500 });
    await until(() => pids().length === 2);
    await expect(call).rejects.toMatchObject({ code: 'GIT_TIMEOUT' });
    expect(pids()).toHaveLength(2);
    await until(() => !pids().some(alive), 2000);
    expect(pids().filter(alive)).toEqual([]);
  });

  it('ends every git still running, and what each started, when the hook exits (endGitChildren)', async () => {
    const call = runner().run(['status']);
    call.catch(() => undefined);
    await until(() => pids().length === 2);
    expect(descendantsOf(process.pid).length).toBeGreaterThanOrEqual(2);
    endGitChildren();
    await expect(call).rejects.toMatchObject({ code: 'GIT_FAILED' });
    await until(() => !pids().some(alive), 2000);
    expect(pids().filter(alive)).toEqual([]);
  });

  it('still signals a reader whose input was closed (not waited for) when the hook exits, if it has not gone by itself', async () => {
    const batch = new CatFileBatch(runner());
    batch.start();
    await until(() => pids().length === 2);
    void batch.close(); // this git ignores its input's end, as no real cat-file does (its sleep keeps the pipes open)
    endGitChildren();
    const script = pids()[1]!;
    await until(() => !alive(script), 2000);
    expect(alive(script)).toBe(false);
  });
});
