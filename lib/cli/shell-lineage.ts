import { claudeLineageSignal } from '../hosts/claude/lineage-signal';
import { codexLineageSignal } from '../hosts/codex/client-process';
import type { LineageSignal } from '../local-state/lineage-signal';

/**
 * The lineage signal of the agent whose shell runs this verb, the same signal its hooks record:
 * Claude Code's Bash tool passes `CLAUDE_PID`; Codex's `exec_command` shell passes
 * `CODEX_SESSION_ID` but no client pid, so the client is found as the nearest `codex` ancestor
 * (the verb runs under git and a shell, under that client). Null outside an agent's shell: the
 * resume then scopes by worktree, branch and author only.
 */
export function shellLineageSignal(env: NodeJS.ProcessEnv, ppid: number = process.ppid): LineageSignal | null {
  const claude = claudeLineageSignal(env);
  if (claude !== null) return claude;
  // Only a Codex shell: elsewhere a `codex` ancestor would be some other client's.
  if (typeof env.CODEX_SESSION_ID === 'string' && env.CODEX_SESSION_ID !== '') return codexLineageSignal(ppid);
  return null;
}
