/** The environment switches the budget honours, read once from the hook's or CLI's env. */
export interface BudgetSwitches {
  /** `CAPSULE_DISABLED` is set at all (presence-style): the whole tool stays out of the way. */
  capsuleDisabled: boolean;
  /** `DISABLE_COMPACT` is truthy: the host cannot compact, so no warning and no block. */
  compactDisabled: boolean;
  /** `DISABLE_AUTO_COMPACT` is truthy: the host never compacts by itself, so no automatic block. */
  autoCompactDisabled: boolean;
}

/**
 * Reads the switches. `CAPSULE_DISABLED` is ours and presence-style (even empty counts, as the
 * seed specifies); `DISABLE_COMPACT` and `DISABLE_AUTO_COMPACT` are the host's, parsed the way
 * Claude Code 2.1.332 parses them (`1`, `true`, `yes`, `on`, any case), so `DISABLE_COMPACT=0`
 * does not silence a warning the host's compaction still needs.
 */
export function readBudgetSwitches(env: Readonly<Record<string, string | undefined>>): BudgetSwitches {
  return {
    capsuleDisabled: env.CAPSULE_DISABLED !== undefined,
    compactDisabled: envTruthy(env.DISABLE_COMPACT),
    autoCompactDisabled: envTruthy(env.DISABLE_AUTO_COMPACT),
  };
}

/** True for the host's truthy spellings of an environment flag. */
export function envTruthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}
