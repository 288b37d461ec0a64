import { isAbsolute, join, resolve } from 'node:path';
import { noteStateRoot } from './state-dir-trust';

/** The environment variable that moves the runtime state dir (tests divert it; docs/hooks.md). */
export const STATE_DIR_ENV = 'CAPSULE_STATE_DIR';

/**
 * The runtime state dir of a repository: `CAPSULE_STATE_DIR` when set, else
 * `<git common dir>/capsule`; null when neither is known (outside a repository). The one place
 * that reads the variable. A relative value is taken from the repository's top level (the folder
 * holding `.git`, else the common dir), never from the process cwd, which follows the agent's
 * `cd`: every caller of one repository must land on the same dir.
 */
export function resolveStateDir(where: { env: NodeJS.ProcessEnv; commonDir: string | null; workTree?: string | null }): string | null {
  const root = stateDirOf(where);
  // Noted, so every write below it checks each folder from the root down (state-dir-trust.ts).
  if (root !== null) noteStateRoot(root);
  return root;
}

function stateDirOf(where: { env: NodeJS.ProcessEnv; commonDir: string | null; workTree?: string | null }): string | null {
  const override = where.env[STATE_DIR_ENV];
  if (override) {
    if (isAbsolute(override)) return resolve(override);
    const base = where.workTree ?? where.commonDir;
    return base === null ? null : resolve(base, override);
  }
  return where.commonDir === null ? null : join(where.commonDir, 'capsule');
}
