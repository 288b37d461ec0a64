/**
 * The session of the agent that runs this command, from its shell's environment: Claude Code's
 * Bash tool sets `CLAUDE_CODE_SESSION_ID`, Codex's `exec_command` sets `CODEX_SESSION_ID` (the
 * same id its hooks read from stdin; as Codex 0.169.0 sets it). Hooks get neither, so this is for
 * verbs the agent runs (`git capsule write`, `resume`): what it writes is that session's own.
 * Undefined outside an agent's shell or for a value that is not a plain id.
 */
export function shellSessionId(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of ['CLAUDE_CODE_SESSION_ID', 'CODEX_SESSION_ID']) {
    const id = env[name];
    if (typeof id === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(id)) return id;
  }
  return undefined;
}
