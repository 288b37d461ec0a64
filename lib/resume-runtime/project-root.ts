import { createGitRunner } from '../git/git-runner';

/**
 * The project's top level, where `.capsule/` lives: `git rev-parse --show-toplevel`, or `cwd`
 * itself outside a work tree. Used when the store could not be opened (a bad memory root still
 * has a project whose declarations count). Never throws.
 */
export async function findProjectRoot(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const out = await createGitRunner({ cwd, env }).run(['rev-parse', '--show-toplevel']);
    return out.stdout.trim() || cwd;
  } catch {
    return cwd;
  }
}
