import { commandWords, splitCommands } from './bash-command';

/** What kind of check a command runs, when it runs one. */
export type CheckKind = 'test' | 'lint' | 'typecheck' | 'build' | 'other';

/**
 * A shell command reduced to what it runs: the program and its sub-command or script
 * (`npm test`, `npm run lint`, `pytest`, `go test`), the remaining arguments (the filter:
 * `auth` in `npm test -- auth`), and the kind of check. Directory changes, environment
 * assignments and output filters piped after it (`| tail -20`) are not part of it.
 */
export interface CommandShape {
  family: string;
  args: string[];
  kind: CheckKind;
}

// Commands that only reshape another command's output, or set up for it.
const FILTERS = new Set(['tail', 'head', 'grep', 'less', 'more', 'tee', 'cat', 'sort', 'uniq', 'wc', 'cut', 'sed', 'awk', 'tr', 'column', 'jq']);
const SETUP = new Set(['cd', 'pushd', 'popd', 'export', 'source', '.', 'set', 'true', 'echo', 'sleep', 'clear']);
const PREFIXES = new Set(['npx', 'time', 'nice', 'timeout', 'exec', 'bunx', 'pnpx']);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
// Programs whose first operand is a sub-command worth keeping (`go test`, `cargo clippy`).
const SUBCOMMANDED = new Set(['go', 'cargo', 'make', 'git', 'dotnet', 'gradle', './gradlew', 'mvn', 'bundle', 'rake', 'mix', 'deno', 'uv', 'poetry', 'docker', 'kubectl', 'terraform', 'node', 'python', 'python3', 'ruby', 'sh', 'bash']);

/** How much of a command line is read for its shape and effects. */
export const MAX_COMMAND_CHARS = 16 * 1024;

const KIND_WORDS: ReadonlyArray<[RegExp, CheckKind]> = [
  [/\b(?:typecheck|type-check|tsc|mypy|pyright|check-types)\b/, 'typecheck'],
  [/\b(?:lint|eslint|ruff|flake8|pylint|clippy|golangci-lint|rubocop|stylelint|prettier|shellcheck)\b/, 'lint'],
  [/\b(?:test|tests|t|jest|vitest|mocha|pytest|unittest|rspec|phpunit|ctest|ava|tap|spec|e2e|playwright|cypress)\b/, 'test'],
  [/\b(?:build|compile|webpack|rollup|esbuild|bundle)\b/, 'build'],
];

/**
 * The shape of the command a Bash call runs: its first simple command that is not set-up
 * (cd, export) and not an output filter. Null when there is none.
 *
 * @example commandShape('cd api && npm test -- auth 2>&1 | tail -20') // { family: 'npm test', args: ['auth'], kind: 'test' }
 */
export function commandShape(command: string): CommandShape | null {
  // What a command runs is in its first line or two; a long heredoc body is data, not commands.
  for (const segment of splitCommands(command.slice(0, MAX_COMMAND_CHARS))) {
    let argv = commandWords(segment.words);
    while (argv.length > 0 && PREFIXES.has(argv[0]!)) argv = argv.slice(1).filter((a, i) => i > 0 || !/^\d/.test(a));
    const [program, ...rest] = argv;
    if (program === undefined || SETUP.has(program) || (segment.piped && FILTERS.has(program))) continue;
    const operands = rest.filter((a) => a !== '--');
    let family = program;
    let args = operands;
    if (PACKAGE_MANAGERS.has(program)) {
      const [sub, ...more] = operands;
      if (sub === 'run' || sub === 'run-script') [family, args] = [`${program} run ${more[0] ?? ''}`.trim(), more.slice(1)];
      else if (sub === 't' || sub === 'tst') [family, args] = [`${program} test`, more];
      else if (sub !== undefined) [family, args] = [`${program} ${sub}`, more];
    } else if ((program === 'python' || program === 'python3') && operands[0] === '-m') [family, args] = [operands[1] ?? 'python', operands.slice(2)];
    else if (SUBCOMMANDED.has(program) && operands[0] !== undefined && !operands[0].startsWith('-')) [family, args] = [`${program} ${operands[0]}`, operands.slice(1)];
    return { family, args, kind: checkKind(family) };
  }
  return null;
}

function checkKind(family: string): CheckKind {
  for (const [words, kind] of KIND_WORDS) if (words.test(family)) return kind;
  return 'other';
}
