import { resolve } from 'node:path';
import { runGitSync } from '../git/git-sync';
import { resolveStateDir } from './state-dir';

/** Where the CLI found the repository and its runtime state. */
export interface BudgetLocation {
  /** The project root (`CLAUDE_PROJECT_DIR`, else the git top level, else cwd). */
  projectDir: string;
  /** `CAPSULE_STATE_DIR`, else `<git common dir>/capsule`; null outside a repository. */
  runtimeDir: string | null;
}

/** Locates the project and the runtime dir, spawning git once (CLI use; hooks read .git files instead). */
export function locateBudget(cwd: string, env: NodeJS.ProcessEnv): BudgetLocation {
  let top: string | null = null;
  let common: string | null = null;
  try {
    // A hung git must not block the caller for ever (a healthy rev-parse answers in ~5 ms).
    const out = runGitSync(['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir'], { cwd, env, timeoutMs: 1500 }).stdout.split('\n');
    top = out[0] || null;
    common = out[1] || null;
  } catch {
    // Outside a repository (or a bare one): the budget still reports, without runtime state.
  }
  const projectDir = env.CLAUDE_PROJECT_DIR ? resolve(env.CLAUDE_PROJECT_DIR) : top ?? resolve(cwd);
  const runtimeDir = resolveStateDir({ env, commonDir: common, workTree: top });
  return { projectDir, runtimeDir };
}
