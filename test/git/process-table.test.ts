import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noTable, procTable, processTable, psTable, setProcessTable } from '../../lib/git/process-table';
import { descendantsOf } from '../../lib/git/process-tree';
import { codexLineageSignal, readProcStat } from '../../lib/hosts/codex/client-process';
import { claudeLineageSignal } from '../../lib/hosts/claude/lineage-signal';
import { isProcessAlive, processStartOf } from '../../lib/local-state/process-liveness';
import { tempDir } from '../support/temp-dirs';

// Issue 31, "Linux only, silently": lineage, liveness and child cleanup read the process table
// through one seam. Each path runs here: /proc, ps with /proc hidden (Linux has ps, so the macOS
// path runs for real), and none (Windows: nothing can be read).
const linux = process.platform === 'linux' ? describe : describe.skip;
afterEach(() => setProcessTable(null));

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});
/** A `codex` (a script of that name) whose child sleeps: a client with something under it. */
async function fakeCodex(): Promise<{ client: number; child: number }> {
  const dir = tempDir('capsule-fake-codex-');
  writeFileSync(join(dir, 'codex'), '#!/bin/sh\nsleep 60 &\necho $!\nwait\n');
  chmodSync(join(dir, 'codex'), 0o755);
  const c = spawn(join(dir, 'codex'), [], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(c);
  const child = await new Promise<number>((resolve) => c.stdout!.once('data', (b: Buffer) => resolve(Number(String(b).trim()))));
  // `$!` is printed as soon as the shell forks, before the fork has exec'd sleep: until then the
  // child is itself named codex and the walk would rightly take it for the client (one run in a
  // few hundred on a loaded machine). Wait until it is sleep.
  const comm = () => procTable().read(child)?.comm;
  for (let i = 0; i < 200 && comm() !== 'sleep'; i++) await new Promise((r) => setTimeout(r, 10));
  expect(comm()).toBe('sleep');
  return { client: c.pid!, child };
}

linux('the process table seam', () => {
  it('reads the same process the same way through /proc and through ps', () => {
    const viaProc = procTable().read(process.pid)!;
    const viaPs = psTable().read(process.pid)!;
    expect(viaPs).toMatchObject({ pid: process.pid, ppid: viaProc.ppid, comm: viaProc.comm });
    expect(viaProc.start).toMatch(/^\d+$/);
    expect(viaPs.start).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{2} \d+ \d\d:\d\d:\d\d \d{4}$/);
    expect(psTable().list()).toEqual(expect.arrayContaining([{ pid: process.pid, ppid: process.ppid }]));
  });

  it('reads nothing for a process that is gone, and nothing at all without a source', () => {
    expect(psTable().read(2 ** 22 + 7)).toBeNull();
    expect(noTable().read(process.pid)).toBeNull();
    expect(noTable().list()).toBeNull();
  });

  it.each([['proc', procTable], ['ps', psTable]] as const)('finds a codex client, its start and what runs under it through %s', async (_name, table) => {
    const { client, child } = await fakeCodex();
    setProcessTable(table());
    const signal = codexLineageSignal(child, readProcStat);
    expect(signal).toEqual({ host: 'codex', key: String(client), pid: client, processStart: processStartOf(client) });
    expect(isProcessAlive(client, signal!.processStart)).toBe(true);
    expect(isProcessAlive(client, `${signal!.processStart}0`)).toBe(false);
    expect(descendantsOf(client)).toEqual([child]);
  });

  it('gives Codex no lineage and Claude Code no start time where nothing can be read, never keying on the hook\'s parent', async () => {
    const { child } = await fakeCodex();
    setProcessTable(noTable());
    expect(codexLineageSignal(child, readProcStat)).toBeNull();
    expect(claudeLineageSignal({ CLAUDE_PID: String(process.pid) })).toEqual({ host: 'claude', key: String(process.pid), pid: process.pid });
    expect(isProcessAlive(process.pid, 'any start')).toBe(true);
    expect(descendantsOf(process.pid)).toEqual([]);
  });

  it('picks a source from CAPSULE_PROCESS_TABLE, for hook processes run with /proc hidden', () => {
    setProcessTable(null);
    expect(processTable({ CAPSULE_PROCESS_TABLE: 'ps' }).source).toBe('ps');
    setProcessTable(null);
    expect(processTable({ CAPSULE_PROCESS_TABLE: 'none' }).source).toBe('none');
    setProcessTable(null);
    expect(processTable({}).source).toBe('proc');
  });

  it('tells a zombie from a live process through ps too', async () => {
    setProcessTable(psTable());
    const c = spawn('sleep', ['60']);
    children.push(c);
    expect(isProcessAlive(c.pid!)).toBe(true);
    c.kill('SIGKILL');
    await new Promise((r) => c.once('exit', r));
    expect(isProcessAlive(c.pid!)).toBe(false);
  });
});
