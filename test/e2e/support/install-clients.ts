import { spawnSync } from 'node:child_process';
import { CLAUDE_CLIENT } from '../claude-client';
import { CODEX_CLIENT } from '../codex-client';
import { COPILOT_CLIENT } from '../copilot-client';
import { installPinnedClients } from './pinned-client';

/**
 * The e2e lane's global setup: installs the pinned real clients (Claude Code into
 * `.e2e-client/`, Codex into `.e2e-codex/`, GitHub Copilot CLI into `.e2e-copilot/`, each once, from the npm registry, the three side by side) before any
 * end-to-end file runs, so files running side by side never install at the same time; and
 * checks tmux, which the Codex and Copilot TUI suites drive (`.ci/run` installs it on a bare Debian machine).
 * What is missing fails the run with its reason: no real-client suite skips.
 */
export default async function installClients(): Promise<void> {
  const t0 = Date.now();
  await installPinnedClients([CLAUDE_CLIENT, CODEX_CLIENT, COPILOT_CLIENT]);
  if (spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status !== 0) {
    throw new Error('the end-to-end lane needs tmux on PATH for the Codex TUI suite (Debian: apt-get install tmux; .ci/run installs it)');
  }
  const s = Math.round((Date.now() - t0) / 1000);
  if (s >= 2) process.stderr.write(`e2e: real clients installed in ${s} s\n`);
}
