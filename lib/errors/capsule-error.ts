import type { ErrorCode } from './error-codes';

/**
 * The one error type thrown inside `lib/`. `code` is one of the stable codes of
 * `error-codes.ts` (each documented in docs/errors.md) and is what callers and tests match on; `data` carries the structured facts; `cause` keeps the original.
 *
 * @example
 * throw new CapsuleError('MEMORY_ROOT', 'MEMORY-ROOT: capsule.ref "heads/x" is not under refs/ …', { ref: 'heads/x' });
 */
export class CapsuleError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, data: Record<string, unknown> = {}, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CapsuleError';
    this.code = code;
    this.data = data;
  }
}

/** True when `err` is a CapsuleError, optionally with the given code. */
export function isCapsuleError(err: unknown, code?: ErrorCode): err is CapsuleError {
  return err instanceof CapsuleError && (code === undefined || err.code === code);
}
