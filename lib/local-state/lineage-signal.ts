/**
 * The host's own signal that two hook calls belong to one client process, in a host-neutral
 * shape: a host adapter (lib/hosts/<host>) reads it from its environment, and the hand-over
 * record (lineage-record.ts) is keyed by it. Claude Code: `CLAUDE_PID`, the same in every hook
 * of one client process (so in SessionEnd(clear) and the SessionStart(clear) that follows it),
 * different for two concurrent sessions.
 */
export interface LineageSignal {
  /** The host's name (`claude`, `codex`): records of two hosts never mix. */
  host: string;
  /** The signal's value, e.g. the client's process id; becomes part of a file name (kept to `[A-Za-z0-9_.-]`). */
  key: string;
  /** The client's process id when the signal is one: liveness is then checked (process-liveness.ts). */
  pid?: number;
  /**
   * When that process started, as the kernel counts it (Linux: field 22 of /proc/<pid>/stat);
   * a record whose start differs belongs to an earlier process that had the same pid.
   */
  processStart?: string;
}

const SAFE_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/** True when a signal can name a record file (a host gave a plain value). */
export function isUsableSignal(signal: LineageSignal | null | undefined): signal is LineageSignal {
  return signal != null && SAFE_KEY.test(signal.host) && SAFE_KEY.test(signal.key);
}
