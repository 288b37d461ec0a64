import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CapsuleError } from '../errors/capsule-error';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a verb's arguments strictly; an unknown flag or a missing value is a `USAGE` error
 * (exit 2) that names the flag and points at `git capsule help <verb>` (`git capsule <verb> --help`
 * is `git help capsule` to git, which opens the man page instead).
 */
export function parseVerbArgs<O extends Options>(verb: string, args: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new CapsuleError('USAGE', `${reason}. See 'git capsule help ${verb}'.`, { verb, args }, { cause: err });
  }
}

/** Throws a USAGE error for the verb with the given reason. */
export function usageError(verb: string, reason: string): CapsuleError {
  return new CapsuleError('USAGE', `${reason}. See 'git capsule help ${verb}'.`, { verb });
}
