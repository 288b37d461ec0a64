import type { GitCallOptions, GitOutput, GitRunner } from '../../../lib/git/git-runner';

/** A runner that records each call's arguments and input and delegates to a real one. */
export function recordingRunner(real: GitRunner): GitRunner & { calls: Array<{ args: string[]; input?: string }> } {
  const calls: Array<{ args: string[]; input?: string }> = [];
  return {
    cwd: real.cwd,
    env: real.env,
    calls,
    run(args: readonly string[], opts?: GitCallOptions): Promise<GitOutput> {
      calls.push({ args: [...args], input: opts?.input === undefined ? undefined : String(opts.input) });
      return real.run(args, opts);
    },
  };
}
