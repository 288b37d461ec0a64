/**
 * Every code git-capsule throws (`CapsuleError.code`) or writes at the start of an error-log
 * line, one checked union: a new code must be added here, and `docs/errors.md` must say what it
 * means and what to do (test/errors/error-codes.test.ts checks both ways).
 */
export const ERROR_CODES = [
  // Usage and input
  'USAGE',
  'BAD_SESSION_ID',
  'CAP_TOO_SMALL',
  'FILE_UNREADABLE',
  'NO_HOME',
  // Git and the repository
  'GIT_MISSING',
  'GIT_FAILED',
  'GIT_TIMEOUT',
  'NOT_A_REPO',
  // The memory branch
  'MEMORY_ROOT',
  'MEMORY_UNREADABLE',
  'MEMORY_BRANCH_UNREADABLE',
  'MEMORY_FORMAT_NEWER',
  'NOT_FOUND',
  'AMBIGUOUS_ID',
  'CAPSULE_EXISTS',
  'CAPSULE_INVALID',
  'CAPSULE_RETIRED',
  'CREATED_AT_CHANGED',
  'STATUS_BACKWARD',
  'STATUS_UNKNOWN',
  'WRITE_CONFLICT',
  'MEMORY_REF_CHECKED_OUT',
  // Sync
  'NO_REMOTE',
  'PUSH_REJECTED',
  'REMOTE_UNREACHABLE',
  'SYNC_BLOB_MISSING',
  'SYNC_FORMAT_MISMATCH',
  'SYNC_NOT_MEMORY',
  'SYNC_RACE_LOST',
  // Install and wiring
  'HOOKS_DISABLED',
  'HOOK_BUNDLES_MISSING',
  'HOOK_CHAIN_OCCUPIED',
  'HOOK_COMMAND_NOT_ON_PATH',
  'JSON_TEXT_INVALID',
  'SETTINGS_INVALID',
  // History
  'HISTORY_CONFLICTING_DUPLICATE',
  'HISTORY_CYCLE',
  'HISTORY_INVALID_RECORD',
  'HISTORY_LEAF_UNKNOWN',
  'HISTORY_MALFORMED_LINE',
  'HISTORY_NO_LEAF',
  'HISTORY_NO_TRANSCRIPT',
  'HISTORY_OFF_BRANCH',
  'HISTORY_QUERY_EMPTY',
  'HISTORY_QUERY_MISMATCH',
  'HISTORY_SESSION_MISMATCH',
  'HISTORY_SIDECHAIN_MISMATCH',
  'HISTORY_UNKNOWN_SEQ',
  // Hooks (error-log lines; a hook always fails open)
  'HOOK_INPUT_NOT_JSON',
  'HOOK_INPUT_INVALID',
  'HOOK_HOST_UNKNOWN',
  'HOOK_TIMEOUT',
  'HOOK_INTERNAL',
  'STOP_BLOCK_SUPPRESSED',
  'AUTOSAVE_VALIDATION',
  'AUTOSAVE_IN_FLIGHT',
  'CLEARED_FOLD_FAILED',
  'BOOT_RECEIPT_UNWRITABLE',
  'SESSION_STATE_UNWRITABLE',
  'STATE_FILE_UNSAFE',
  'STATE_DIR_UNSAFE',
  'SEAL_KEY_UNREADABLE',
  'SEAL_UPGRADE_FAILED',
  'LINEAGE_RECORD_UNWRITABLE',
  'REDACTED',
  'TRANSCRIPT_RESTARTED',
  'TRANSCRIPT_DELTA_CLIPPED',
  'TRANSCRIPT_UNREADABLE',
  'RESUME_CONSUME_FAILED',
  'LIFECYCLE_EXTENSION',
  'COORDINATION_STATE_INVALID',
  'BUDGET_GIT_CONFIG',
  'BUDGET_FAILED',
  'BUDGET_UNRESOLVABLE',
  'BUDGET_SUPPRESSED',
  // The supervisor (git capsule supervise)
  'SUPERVISE_SPAWN_FAILED',
  // Anything else: a bug, reported with its message
  'INTERNAL',
] as const;

/** One of git-capsule's stable error codes. */
export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN: ReadonlySet<string> = new Set(ERROR_CODES);

/** True when `value` is one of the codes above (for codes read back from a caught error or a file). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && KNOWN.has(value);
}
