import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NativePointResult } from '../../budget/native-point';
import { readCodexConfigText, readConfigOverride, type CodexConfigValues } from './codex-config';

/** Where the Codex native point came from. */
export type CodexPointSource = 'cli' | 'profile' | 'project' | 'user' | 'default';

/** What the Codex native point is resolved from: the client's own arguments and its config files, read by the caller. */
export interface CodexPointInputs {
  /** The Codex client's arguments (its /proc cmdline), null when unknown. */
  argv: readonly string[] | null;
  /** `<project>/.codex/config.toml` text, null when absent. */
  projectConfig: string | null;
  /** `$CODEX_HOME/config.toml` text, null when absent. */
  userConfig: string | null;
  /** The window the rollout reports (`model_context_window`), null when none yet. */
  window: number | null;
}

/**
 * Where the Codex CLI 0.169.0 compacts by itself: `model_auto_compact_token_limit` from the
 * client's `-c` overrides, then the selected profile, then the project's `.codex/config.toml`,
 * then `$CODEX_HOME/config.toml`; unset, 90 % of the model's raw window, which the rollout
 * reports as 95 % of it (measured with gpt-5.5: `model_context_window` 258,400, compaction from
 * 244,800 = 258,400 × 18/19). Pure; never throws.
 */
export function resolveCodexNativePoint(inputs: CodexPointInputs): NativePointResult & { source?: CodexPointSource } {
  const notes: string[] = [];
  const cli = cliOverrides(inputs.argv ?? []);
  const user = inputs.userConfig === null ? null : readCodexConfigText(inputs.userConfig);
  const project = inputs.projectConfig === null ? null : readCodexConfigText(inputs.projectConfig);
  const profileName = cli.profile ?? user?.profile;
  const profile = profileName === undefined ? undefined : user?.profiles[profileName];
  const candidates: Array<[CodexPointSource, number | undefined]> = [
    ['cli', cli.autoCompactLimit],
    ['profile', profile?.autoCompactLimit],
    ['project', project?.autoCompactLimit],
    ['user', user?.autoCompactLimit],
  ];
  const configured = candidates.find(([, v]) => v !== undefined && v > 0);
  const window = inputs.window ?? cli.contextWindow ?? profile?.contextWindow ?? project?.contextWindow ?? user?.contextWindow ?? null;
  let tokens: number;
  let source: CodexPointSource;
  if (configured) [source, tokens] = [configured[0], configured[1]!];
  else if (window !== null) [source, tokens] = ['default', Math.floor((window * 18) / 19)];
  // Nothing configured and no token_count yet: a session before its first answer, whose
  // rollout reports the window with the first count. Pending, not broken.
  else return { status: 'unresolvable', reason: 'Codex names no model_auto_compact_token_limit and no model_context_window yet (no token_count in the rollout)', notes, pending: true };
  const point = { tokens, window: window ?? tokens, windowSource: 'host' as const, modelWindow: window ?? tokens, modelWindowSource: 'host' as const, outputReserve: 0, pointSource: configured ? ('threshold' as const) : ('computed' as const), pctOverride: null, autoCompact: true };
  return { status: 'ok', point, notes, source };
}

function cliOverrides(argv: readonly string[]): Partial<CodexConfigValues> {
  const out: Partial<CodexConfigValues> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = arg === '-c' || arg === '--config' ? argv[++i] : arg.startsWith('--config=') ? arg.slice('--config='.length) : undefined;
    const profile = arg === '-p' || arg === '--profile' ? argv[++i] : arg.startsWith('--profile=') ? arg.slice('--profile='.length) : undefined;
    if (profile !== undefined) out.profile = profile;
    if (value === undefined) continue;
    const override = readConfigOverride(value);
    if (override?.key === 'model_auto_compact_token_limit' && typeof override.value === 'number') out.autoCompactLimit = override.value;
    if (override?.key === 'model_context_window' && typeof override.value === 'number') out.contextWindow = override.value;
    if (override?.key === 'profile' && typeof override.value === 'string') out.profile = override.value;
  }
  return out;
}

/** Reads a config file's text, or null when it is absent or unreadable. */
export function readConfigFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** `$CODEX_HOME/config.toml`, else `~/.codex/config.toml`; null without either variable. */
export function userConfigPath(env: NodeJS.ProcessEnv): string | null {
  if (env.CODEX_HOME) return join(env.CODEX_HOME, 'config.toml');
  return env.HOME ? join(env.HOME, '.codex', 'config.toml') : null;
}
