import type { LineageSignal } from '../../local-state/lineage-signal';
import { processStartOf } from '../../local-state/process-liveness';

/**
 * Claude Code's lineage signal: `CLAUDE_PID`, the client's process id, which every hook of one
 * client process sees (SessionEnd with reason `clear` and the SessionStart(`clear`) after it;
 * PreCompact and the SessionStart(`compact`) after it) and two concurrent sessions see
 * differently (observed with Claude Code 2.1.332). The Bash tool's commands see it too, so `git capsule resume`
 * run by the agent knows its own session's lineage. Null when absent or not a process id.
 */
export function claudeLineageSignal(env: NodeJS.ProcessEnv): LineageSignal | null {
  const raw = env.CLAUDE_PID;
  if (raw === undefined || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const pid = Number(raw);
  const processStart = processStartOf(pid);
  return { host: 'claude', key: raw, pid, ...(processStart === undefined ? {} : { processStart }) };
}
