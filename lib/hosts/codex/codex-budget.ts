import { join } from 'node:path';
import type { HostBudget } from '../host';
import { codexClientProcess, readCmdline } from './client-process';
import { readConfigFile, resolveCodexNativePoint, userConfigPath } from './native-point';
import { readRolloutFill } from './rollout-fill';

/**
 * The budget's inputs on the Codex CLI: the fill from the rollout's last `token_count`, and
 * `model_auto_compact_token_limit` as the client resolves it, its own `-c` arguments included
 * (read from /proc/<client>/cmdline: a hook sees no other trace of them).
 */
export const codexBudget: HostBudget = {
  readFill: (path) => {
    const read = readRolloutFill(path);
    if (!read.ok) return { ok: false, message: read.message };
    return { ok: true, fill: read.found?.fill ?? null, window: read.found?.window ?? null, bytesRead: read.bytesRead };
  },
  nativePoint: ({ env, projectDir, window }) => {
    const client = codexClientProcess(process.ppid);
    const user = userConfigPath(env);
    return resolveCodexNativePoint({
      argv: client === null ? null : readCmdline(client.pid),
      projectConfig: readConfigFile(join(projectDir, '.codex', 'config.toml')),
      userConfig: user === null ? null : readConfigFile(user),
      window,
    });
  },
};
