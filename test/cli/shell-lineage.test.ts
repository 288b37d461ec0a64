import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellLineageSignal } from '../../lib/cli/shell-lineage';
import { procTable } from '../../lib/git/process-table';

/**
 * The pid of a process's only child, from /proc, once that child runs `command` (waits until
 * then). The child shows up at the fork, before it has exec'd: until then it is a copy of its
 * parent, named codex here, and the walk would rightly take it for the client.
 */
async function childOf(pid: number, command: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    const child = children === '' ? 0 : Number(children.split(' ')[0]);
    if (child !== 0 && procTable().read(child)?.comm === command) return child;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`process ${pid} started no ${command}`);
}

// A real process tree shaped like a verb run by the model: a process named `codex` (a shell
// under that name) with a child below it, as exec_command's shell runs git under the client.
(process.platform === 'linux' ? describe : describe.skip)('shellLineageSignal', () => {
  let dir: string;
  let client: ChildProcess;
  let below: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'capsule-shell-lineage-'));
    symlinkSync('/bin/sh', join(dir, 'codex'));
    // `; :` keeps the shell from exec-ing sleep, so sleep is the client's child.
    client = spawn(join(dir, 'codex'), ['-c', 'sleep 30; :'], { stdio: 'ignore' });
    below = await childOf(client.pid!, 'sleep');
  });
  afterAll(() => {
    client?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it("names the Codex client above a verb run in Codex's shell, by pid and start time", () => {
    const signal = shellLineageSignal({ CODEX_SESSION_ID: 'codex-s2' }, below);
    expect(signal).toMatchObject({ host: 'codex', key: String(client.pid), pid: client.pid });
    expect(signal?.processStart).toMatch(/^\d+$/);
  });

  it("gives no signal outside Codex's shell, even under a process named codex", () => {
    expect(shellLineageSignal({}, below)).toBeNull();
  });

  it("prefers Claude Code's CLAUDE_PID when the shell names both", () => {
    expect(shellLineageSignal({ CLAUDE_PID: String(process.pid), CODEX_SESSION_ID: 'codex-s2' }, below)).toMatchObject({ host: 'claude', key: String(process.pid) });
  });
});
