import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The pinned real client; a test-only install, never a runtime dependency. */
export const CLAUDE_CODE_VERSION = '2.1.332';

/** The repository root (the plugin dir). */
export const REPO_ROOT = resolve(__dirname, '..', '..');

const CLIENT_PREFIX = join(REPO_ROOT, '.e2e-client');

/**
 * Returns the path of the real `claude` binary: `CLAUDE_BIN` when set, else the pinned
 * version installed once into `.e2e-client/` (cached; about 10 s the first time). The
 * wrapper package's postinstall may not run, so this uses the native binary directly.
 */
export function ensureClaudeClient(): string {
  if (process.env.CLAUDE_BIN) return process.env.CLAUDE_BIN;
  const bin = join(CLIENT_PREFIX, 'node_modules', '@anthropic-ai', 'claude-code-linux-x64', 'claude');
  if (!existsSync(bin) || installedVersion() !== CLAUDE_CODE_VERSION) {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', CLIENT_PREFIX, `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], {
      stdio: 'ignore',
      timeout: 180_000,
    });
  }
  return bin;
}

function installedVersion(): string | null {
  try {
    return require(join(CLIENT_PREFIX, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json')).version;
  } catch {
    return null;
  }
}

/**
 * Finds the shared harness (`run.sh`, `validate.sh`, `fake-api.mjs`): `CAPSULE_HARNESS_DIR`
 * when set, else the first `shared/claude-harness` in the repository's parent folders
 * (CI: `../shared/claude-harness`). Null when there is none.
 */
export function findHarness(): string | null {
  if (process.env.CAPSULE_HARNESS_DIR) return resolve(process.env.CAPSULE_HARNESS_DIR);
  for (let dir = dirname(REPO_ROOT); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'claude-harness');
    if (existsSync(join(candidate, 'run.sh'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}
