import { codexClientKey, readProcStat, type ProcStat } from '../../../lib/hosts/codex/client-process';

// The process tree a TUI hook saw (codex-harness, probe under tmux): node ← codex ← node launcher ← bash.
const TREE: Record<number, ProcStat> = {
  32630: { pid: 32630, comm: 'node', ppid: 32240, startTicks: '407545' },
  32240: { pid: 32240, comm: 'codex', ppid: 32215, startTicks: '406982' },
  32215: { pid: 32215, comm: 'node', ppid: 32213, startTicks: '406916' },
  32213: { pid: 32213, comm: 'bash', ppid: 1, startTicks: '406915' },
  50: { pid: 50, comm: 'zsh', ppid: 32240, startTicks: '407000' },
};
const read = (pid: number) => TREE[pid] ?? null;

describe('codexClientKey', () => {
  it('names the codex client a hook runs under by pid and start time', () => {
    expect(codexClientKey(32240, read)).toBe('codex-pid:32240:406982');
  });

  it('looks past a shell that did not exec the hook', () => {
    expect(codexClientKey(50, read)).toBe('codex-pid:32240:406982');
  });

  it('returns null when no ancestor is the codex client', () => {
    expect(codexClientKey(32215, read)).toBeNull();
  });

  it('falls back to the parent pid where /proc cannot be read', () => {
    expect(codexClientKey(4242, () => null)).toBe('codex-ppid:4242');
  });
});

describe('readProcStat', () => {
  (process.platform === 'linux' ? it : it.skip)('reads this process from /proc, a comm with spaces included', () => {
    const stat = readProcStat(process.pid);
    expect(stat).toMatchObject({ pid: process.pid, ppid: process.ppid });
    expect(stat!.startTicks).toMatch(/^\d+$/);
  });
});
