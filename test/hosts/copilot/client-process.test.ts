import { copilotClientProcess, copilotLineageSignal } from '../../../lib/hosts/copilot/client-process';
import type { ProcStat } from '../../../lib/hosts/process-ancestry';

// The tree measured under the interactive client: node (hook) ← bash ← copilot (comm MainThread) ← node (npm launcher).
const TABLE: Record<number, ProcStat & { argv: string[] }> = {
  500: { pid: 500, comm: 'bash', ppid: 400, startTicks: '9', argv: ['/bin/bash', '-c', 'node hook.js'] },
  400: { pid: 400, comm: 'MainThread', ppid: 300, startTicks: '7', argv: ['/x/node_modules/@github/copilot-linux-x64/copilot', '--allow-all-tools'] },
  300: { pid: 300, comm: 'node', ppid: 1, startTicks: '5', argv: ['node', '/x/node_modules/.bin/copilot'] },
};
const read = (pid: number) => TABLE[pid] ?? null;
const cmdline = (pid: number) => TABLE[pid]?.argv ?? null;

describe("the Copilot client process a hook runs under", () => {
  it('is the nearest ancestor whose program is the copilot binary, not the npm launcher above it', () => {
    expect(copilotClientProcess(500, read, cmdline)?.pid).toBe(400);
  });

  it('gives the lineage signal by its pid and start time', () => {
    expect(copilotLineageSignal(500, read, cmdline)).toEqual({ host: 'copilot', key: '400', pid: 400, processStart: '7' });
  });

  it('is none when no ancestor is the client', () => {
    expect(copilotLineageSignal(300, read, cmdline)).toBeNull();
    expect(copilotLineageSignal(1, read, cmdline)).toBeNull();
  });
});
