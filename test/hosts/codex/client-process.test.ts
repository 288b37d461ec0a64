import { codexLineageSignal, readProcStat, type ProcStat } from '../../../lib/hosts/codex/client-process';

// The process tree a TUI hook saw (codex-harness, probe under tmux): node ← codex ← node launcher ← bash.
const TREE: Record<number, ProcStat> = {
  32630: { pid: 32630, comm: 'node', ppid: 32240, startTicks: '407545' },
  32240: { pid: 32240, comm: 'codex', ppid: 32215, startTicks: '406982' },
  32215: { pid: 32215, comm: 'node', ppid: 32213, startTicks: '406916' },
  32213: { pid: 32213, comm: 'bash', ppid: 1, startTicks: '406915' },
  50: { pid: 50, comm: 'zsh', ppid: 32240, startTicks: '407000' },
  // A verb the model runs in a sandboxed exec_command: node ← git ← bash ← codex-linux-sandbox ← codex.
  61: { pid: 61, comm: 'codex-linux-san', ppid: 32240, startTicks: '407100' },
  62: { pid: 62, comm: 'bash', ppid: 61, startTicks: '407101' },
  63: { pid: 63, comm: 'git', ppid: 62, startTicks: '407102' },
};
const read = (pid: number) => TREE[pid] ?? null;

describe('codexLineageSignal', () => {
  it('names the codex client a hook runs under by pid and start time', () => {
    expect(codexLineageSignal(32240, read)).toEqual({ host: 'codex', key: '32240', pid: 32240, processStart: '406982' });
  });

  it('looks past a shell that did not exec the hook', () => {
    expect(codexLineageSignal(50, read)).toEqual({ host: 'codex', key: '32240', pid: 32240, processStart: '406982' });
  });

  it('finds the client above the sandbox helper, for a verb run in an exec_command shell', () => {
    expect(codexLineageSignal(63, read)).toEqual({ host: 'codex', key: '32240', pid: 32240, processStart: '406982' });
  });

  it('returns null when no ancestor is the codex client', () => {
    expect(codexLineageSignal(32215, read)).toBeNull();
  });

  it('gives no signal where no process can be read (Windows): never the parent, a login shell started for that one hook', () => {
    expect(codexLineageSignal(4242, () => null)).toBeNull();
  });

  it('gives no signal for a hook whose parent is init (the client is gone)', () => {
    expect(codexLineageSignal(1, () => null)).toBeNull();
  });
});

describe('readProcStat', () => {
  (process.platform === 'linux' ? it : it.skip)('reads this process from /proc, a comm with spaces included', () => {
    const stat = readProcStat(process.pid);
    expect(stat).toMatchObject({ pid: process.pid, ppid: process.ppid });
    expect(stat!.startTicks).toMatch(/^\d+$/);
  });
});
