import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../../lib/cli/main';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git capsule <args>` in-process with captured streams (fast; for most CLI tests). */
export async function runCli(
  args: string[],
  options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv; now?: Date; tty?: boolean } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    now: () => options.now ?? new Date(),
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => options.stdin ?? '',
    isTTY: options.tty ?? false,
    stdoutIsTTY: options.tty ?? false,
  });
  return { code, stdout, stderr };
}

/** The built CLI bundle (npm test builds it first). */
export const CLI_BUNDLE = join(__dirname, '..', '..', 'dist', 'git-capsule.js');

/** Runs the built bundle as a real process, as a user or hook would. */
export function runBundle(args: string[], options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {}): CliRun {
  const r = spawnSync(process.execPath, [CLI_BUNDLE, ...args], {
    cwd: options.cwd,
    input: options.stdin ?? '',
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
