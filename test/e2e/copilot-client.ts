import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './claude-client';

/** The pinned real client; a test-only install, never a runtime dependency (about 190 MB). */
export const COPILOT_VERSION = '1.0.102';

const CLIENT_PREFIX = join(REPO_ROOT, '.e2e-copilot');

/**
 * The real `copilot` launcher: `COPILOT_BIN` when set, else the pinned version installed once
 * into `.e2e-copilot/` (ignored by git; about 10 s the first time). Its launcher runs the native
 * binary of the platform package, which npm installs as an optional dependency; no install
 * script has to run.
 */
export function ensureCopilotClient(): string {
  if (process.env.COPILOT_BIN) return process.env.COPILOT_BIN;
  const bin = join(CLIENT_PREFIX, 'node_modules', '.bin', 'copilot');
  if (!existsSync(bin) || installedVersion() !== COPILOT_VERSION) {
    const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', CLIENT_PREFIX, `@github/copilot@${COPILOT_VERSION}`], { encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0 || !existsSync(bin)) {
      const why = (r.error?.message ?? r.stderr ?? '').trim().split('\n').filter(Boolean).pop() ?? `exit ${r.status}`;
      throw new Error(`the real client cannot run: installing @github/copilot@${COPILOT_VERSION} into .e2e-copilot failed (${why}); set COPILOT_BIN to a copilot ${COPILOT_VERSION} launcher`);
    }
  }
  return bin;
}

function installedVersion(): string | null {
  try {
    return JSON.parse(readFileSync(join(CLIENT_PREFIX, 'node_modules', '@github', 'copilot', 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}
