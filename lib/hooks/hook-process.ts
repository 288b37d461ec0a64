import { readFileSync, writeSync } from 'node:fs';
import type { HookEventName } from '../hosts/host';
import { endGitChildren } from '../git/git-runner';
import { startGitInOwnGroups } from '../git/process-tree';
import { runHook, type HookSpec } from './run-hook';

/**
 * The process wrapper every `entry-<event>.ts` calls: reads stdin, runs the hook, writes its
 * answer with a synchronous write (so nothing is lost to the exit), and exits 0 even if
 * something escaped the runner (2 only for a deliberate Stop block the host reads that way). On exit every git the hook still waits for (one it gave up on at
 * its budget) is ended with its process group and everything it started: `process.exit` alone
 * leaves them running. A signal from the host ends the hook the same way.
 */
export function runHookProcess<E extends HookEventName>(spec: HookSpec<E>): void {
  if (process.env.CAPSULE_DISABLED !== undefined) return; // pass through untouched, stdin unread
  // Last line of defence: something escaped the runner. Still exit 0, and still say so.
  const bail = (err: unknown) => {
    const reason = err instanceof Error ? err.message : String(err);
    writeSync(1, `${JSON.stringify({ systemMessage: `capsule: ${spec.event} hook skipped [HOOK_INTERNAL] ${reason}`.replace(/\s+/g, ' ').slice(0, 300) })}\n`);
    process.exit(0);
  };
  // Each git leads a process group of its own, so ending it at exit ends what it started too,
  // even a child its parent left behind; and a host that stops the hook with a signal (SIGTERM
  // at its timeout, SIGINT, SIGHUP) gets the same cleanup: node's default would exit without it.
  startGitInOwnGroups();
  process.on('exit', endGitChildren);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => process.exit(0));
  process.on('uncaughtException', bail);
  process.on('unhandledRejection', bail);
  runHook(spec, { readStdin, env: process.env, now: () => new Date(), cwd: process.cwd(), argv: process.argv.slice(2), script: process.argv[1], startedAt: Date.now() - Math.round(process.uptime() * 1000) }).then(
    (outcome) => {
      if (outcome.stdout) writeSync(1, outcome.stdout);
      if (outcome.block) writeSync(2, outcome.block.stderr);
      process.exit(outcome.block?.exitCode ?? 0);
    },
    bail,
  );
}

/**
 * Reads stdin with one synchronous read: the host writes the payload and closes the pipe, and
 * not setting up a stream saves measurable start-up on a hook that runs before every prompt.
 * A non-blocking stdin (EAGAIN) falls back to the stream.
 */
async function readStdin(): Promise<string> {
  try {
    return readFileSync(0, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    return readStdinStream();
  }
}

function readStdinStream(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
    process.stdin.on('error', reject);
  });
}
