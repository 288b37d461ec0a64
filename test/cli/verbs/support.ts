import { runCli } from '../../support/run-cli';
import { capsuleText, cleanup, makeRepo } from '../../store/support/temp-repo';

/** A fresh repository and a `cli(args)` that runs `git capsule` in it at a fixed clock. */
export function cliRepo(now = new Date('2026-11-29T21:00:00Z')) {
  const { dir, env } = makeRepo();
  return {
    dir,
    env,
    cli: (args: string[], stdin?: string) => runCli(args, { cwd: dir, env, now, stdin }),
    done: () => cleanup(dir),
  };
}

export { capsuleText };
