/** What a verb may touch of the outside world. Tests build one with captured streams. */
export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Reads all of standard input as UTF-8 (only called by verbs that take `-`). */
  readStdin: () => Promise<string>;
  /** True when stderr is a terminal, for progress lines (and colour on stderr). */
  isTTY: boolean;
  /** True when stdout is a terminal: colour there (lib/cli/colour.ts). */
  stdoutIsTTY?: boolean;
}

/** One `git capsule <verb>`: its help text and its runner, which returns the exit code. */
export interface Verb {
  name: string;
  summary: string;
  usage: string;
  run: (args: string[], ctx: CliContext) => Promise<number>;
}

/** Exit codes shared by every verb (docs/cli.md). */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2 } as const;
