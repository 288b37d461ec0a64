import { posix } from 'node:path';

// Claude Code 2.1.332 cuts a longer name at 200 characters and appends `-<hash of the cwd in
// base 36>`; matching stops at this prefix rather than re-implementing the host's hash.
const MAX_DIR_NAME = 200;

/**
 * The directory name Claude Code keeps a project's transcripts under: the cwd with every
 * character other than a letter or digit replaced by `-` (`/home/dev/project` →
 * `-home-dev-project`). Read from the 2.1.332 client itself:
 * `e.replace(/[^a-zA-Z0-9]/g,"-")`, then the length cut above.
 */
export function claudeProjectDirName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/** True when a directory under `projects/` is the one Claude Code keeps for `cwd`, long names included. */
export function isClaudeProjectDir(name: string, cwd: string): boolean {
  const expected = claudeProjectDirName(cwd);
  if (expected.length <= MAX_DIR_NAME) return name === expected;
  return name.startsWith(`${expected.slice(0, MAX_DIR_NAME)}-`);
}

/** `${CLAUDE_CONFIG_DIR:-$HOME/.claude}/projects`, from the environment values passed in. */
export function claudeProjectsRoot(env: Record<string, string | undefined>): string | null {
  if (env.CLAUDE_CONFIG_DIR) return posix.join(env.CLAUDE_CONFIG_DIR, 'projects');
  const home = env.HOME ?? env.USERPROFILE;
  return home ? posix.join(home, '.claude', 'projects') : null;
}

const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/** The session id a main transcript's file name carries (`<uuid>.jsonl`), or undefined. */
export function sessionIdFromFileName(name: string): string | undefined {
  return SESSION_FILE.exec(name)?.[1];
}

/** True for a subagent transcript (`<session>/subagents/agent-<id>.jsonl`), whose records are all sidechain. */
export function isSubagentTranscript(path: string): boolean {
  return /(?:^|[\\/])subagents[\\/]agent-[^\\/]*\.jsonl$/.test(path);
}
