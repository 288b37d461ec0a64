import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CapsuleError } from '../errors/capsule-error';
import { closest } from './did-you-mean';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a verb's arguments strictly; an unknown flag, a missing value or a stray argument is a
 * `USAGE` error (exit 2) in our own words, with the closest flag the verb knows ("did you mean")
 * and a pointer at `git capsule help <verb>` (`git capsule <verb> --help` is `git help capsule`
 * to git, which opens the man page instead). The top-level catch prints the verb's usage after it.
 */
export function parseVerbArgs<O extends Options>(verb: string, args: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new CapsuleError('USAGE', `${sentence(ownWords(err, args, options))} See 'git capsule help ${verb}'.`, { verb, args }, { cause: err });
  }
}

/** Throws a USAGE error for the verb with the given reason. */
export function usageError(verb: string, reason: string): CapsuleError {
  return new CapsuleError('USAGE', `${sentence(reason)} See 'git capsule help ${verb}'.`, { verb });
}

/** The reason ended as a sentence: a question keeps its mark. */
export function sentence(reason: string): string {
  return /[?.!]$/.test(reason) ? reason : `${reason}.`;
}

/** node's parseArgs error, said in one line without its advice about '--' or its quoting. */
function ownWords(err: unknown, args: string[], options: Options): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const flags = Object.entries(options).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]);
  const named = /'(-[^' ]*)/.exec(message)?.[1]?.split('=')[0] ?? args.find((a) => a.startsWith('-') && !flags.includes(a.split('=')[0]!));
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && named !== undefined) {
    const hint = closest(named, flags.filter((f) => f.startsWith('--')));
    return `unknown option ${named}${hint ? `: did you mean ${hint}?` : ''}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /(?:Option|option) '(?:-\w, )?(--[\w-]+)/.exec(message)?.[1] ?? named ?? 'an option';
    const option = options[flag.replace(/^--/, '')];
    return option?.type === 'boolean' ? `${flag} takes no value` : `${flag} needs a value (${flag} <value>)`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const stray = /'([^']*)'/.exec(message)?.[1];
    return `unexpected argument${stray ? ` '${stray}'` : ''}: this verb takes only options`;
  }
  return message.split('\n')[0]!;
}

/** The `--limit N` option (`-n N`), shared by the verbs that list. */
export const LIMIT_OPTION = { limit: { type: 'string', short: 'n' } } as const;

/** `--limit`'s value: a whole number of 1 or more, or undefined when not given; USAGE otherwise (0 would print nothing and look like "no capsules"). */
export function parseLimit(verb: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < 1) throw usageError(verb, `--limit ${raw}: give a whole number of 1 or more`);
  return n;
}
