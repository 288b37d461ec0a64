/** How long finished capsules stay at the tip, and how long their history is kept before `compact --rewrite-remote` may drop it. */
export interface Retention {
  /** A finished capsule (resumed, abandoned, resolved) whose last event is older leaves the tip; Infinity: never. */
  retireAfterDays: number;
  /** History (and the tombstones of retired capsules) younger than this is never compacted away. */
  keepHistoryDays: number;
}

/** The defaults: a month at the tip after the last event, three months in the history after that. */
export const RETENTION_DEFAULTS: Retention = { retireAfterDays: 30, keepHistoryDays: 90 };

/**
 * `capsule.retireAfterDays` and `capsule.keepHistoryDays` from the config values (keys
 * lower-cased): whole days ≥ 1; `never` (or 0) keeps finished capsules at the tip for good;
 * anything else is the default.
 */
export function retentionFrom(values: Readonly<Record<string, string>>): Retention {
  return {
    retireAfterDays: days(values['capsule.retireafterdays'], RETENTION_DEFAULTS.retireAfterDays, true),
    keepHistoryDays: days(values['capsule.keephistorydays'], RETENTION_DEFAULTS.keepHistoryDays, false),
  };
}

function days(raw: string | undefined, fallback: number, neverAllowed: boolean): number {
  if (raw === undefined) return fallback;
  const value = raw.trim().toLowerCase();
  if (neverAllowed && (value === 'never' || value === '0')) return Number.POSITIVE_INFINITY;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}
