import { CapsuleError } from '../errors/capsule-error';

// What the supervisor needs of the client: headless, one long-lived process reading user
// messages as JSON lines and writing its events as JSON lines (stream-json output needs
// --verbose with -p, or the client exits 1).
const REQUIRED: ReadonlyArray<{ flag: string; value?: string; aliases?: string[] }> = [
  { flag: '-p', aliases: ['--print'] },
  { flag: '--input-format', value: 'stream-json' },
  { flag: '--output-format', value: 'stream-json' },
  { flag: '--verbose' },
];

/**
 * The client command with the flags the supervisor needs appended when missing (`-p`,
 * `--input-format stream-json`, `--output-format stream-json`, `--verbose`). Throws USAGE when
 * the command is empty or sets either format to something else.
 *
 * @example
 * streamJsonCommand(['claude', '--model', 'opus']).argv // ['claude', '--model', 'opus', '-p', '--input-format', 'stream-json', …]
 */
export function streamJsonCommand(argv: readonly string[]): { argv: string[]; added: string[] } {
  if (argv.length === 0 || argv[0] === '') {
    throw new CapsuleError('USAGE', "no client command: give it after '--', for example: git capsule supervise -- claude --plugin-dir . See 'git capsule supervise --help'.", { argv });
  }
  const added: string[] = [];
  for (const need of REQUIRED) {
    const names = [need.flag, ...(need.aliases ?? [])];
    const found = findFlag(argv, names, need.value !== undefined);
    if (found === null) {
      added.push(need.flag, ...(need.value !== undefined ? [need.value] : []));
    } else if (need.value !== undefined && found !== need.value) {
      throw new CapsuleError(
        'USAGE',
        `the client command sets ${need.flag} ${found}, but the supervisor reads and writes the client's stream: it must be ${need.value} (or leave the flag out and the supervisor adds it). See 'git capsule supervise --help'.`,
        { flag: need.flag, value: found, expected: need.value },
      );
    }
  }
  return { argv: [...argv, ...added], added };
}

/** The value of a flag (`--f v` or `--f=v`), '' for a present boolean flag, null when absent. */
function findFlag(argv: readonly string[], names: string[], takesValue: boolean): string | null {
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i]!;
    for (const name of names) {
      if (arg === name) return takesValue ? (argv[i + 1] ?? '') : '';
      if (takesValue && arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return null;
}

/** The model the client command names (`--model X`), or null: the client's first answer names it then. */
export function clientModel(argv: readonly string[]): string | null {
  const value = findFlag(argv, ['--model'], true);
  return value === null || value === '' ? null : value;
}
