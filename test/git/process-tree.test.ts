import { spawn } from 'node:child_process';
import { descendantsOf, killTree } from '../../lib/git/process-tree';

// A git that waits on a child of its own (an alias, a credential helper): killed after that
// child, it could see the child end and exit 0 before its own kill, so a call given up on would
// read as a success with empty output. The whole tree is listed first; the top dies first.
(process.platform === 'linux' ? describe : describe.skip)('killTree', () => {
  it('kills the process before its children, having listed them all first', async () => {
    const top = spawn('/bin/sh', ['-c', 'sleep 300 & wait; exit 0'], { stdio: 'ignore' });
    for (let i = 0; i < 200 && descendantsOf(top.pid!).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const children = descendantsOf(top.pid!);
    expect(children).toHaveLength(1);
    const order: number[] = [];
    const exited = new Promise<number | null>((resolve) => top.once('exit', (code) => resolve(code)));
    killTree(top.pid!, { kill: (pid, signal) => {
      order.push(pid);
      process.kill(pid, signal);
    } });
    expect(order).toEqual([top.pid, ...children]);
    // Killed, not exited 0 after its child went.
    expect(await exited).toBeNull();
  });
});
