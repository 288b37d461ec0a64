/** The config.toml values the budget reads (the keys `codex --strict-config` accepts). */
export interface CodexConfigValues {
  /** `model_auto_compact_token_limit`: where Codex compacts by itself. */
  autoCompactLimit?: number;
  /** `model_context_window`: the window Codex assumes for the model. */
  contextWindow?: number;
  /** `profile`: the profile whose table overrides the top level. */
  profile?: string;
  /** `[profiles.<name>]` tables: the same keys, per profile. */
  profiles: Record<string, Omit<CodexConfigValues, 'profiles' | 'profile'>>;
}

const KEYS: Record<string, 'autoCompactLimit' | 'contextWindow' | 'profile'> = {
  model_auto_compact_token_limit: 'autoCompactLimit',
  model_context_window: 'contextWindow',
  profile: 'profile',
};

/**
 * Reads the few config.toml keys the budget needs, line by line: `key = value` at the top
 * level and in `[profiles.<name>]` tables (bare or quoted name). It is not a TOML parser:
 * everything else (arrays, inline tables, other tables, multi-line strings) is skipped, and a
 * value that is not a whole number or a string is ignored. Never throws.
 */
export function readCodexConfigText(text: string): CodexConfigValues {
  const out: CodexConfigValues = { profiles: {} };
  let table: Record<string, unknown> | null = out as unknown as Record<string, unknown>;
  for (const raw of text.split(/\r?\n/)) {
    const line = stripComment(raw).trim();
    if (line === '') continue;
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      const profile = /^profiles\.(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))$/.exec(header[1]!);
      const name = profile ? (profile[1] ?? profile[2] ?? profile[3])! : null;
      table = name === null ? null : (out.profiles[name] ??= {});
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(.+)$/.exec(line);
    if (!pair || table === null) continue;
    const key = KEYS[pair[1]!];
    if (key === undefined || (key === 'profile' && table !== (out as unknown))) continue;
    const value = tomlScalar(pair[2]!);
    if (key === 'profile' ? typeof value === 'string' : typeof value === 'number') table[key] = value;
  }
  return out;
}

/** A `-c key=value` override as Codex reads it (the value is TOML; a bare word is a string). */
export function readConfigOverride(text: string): { key: string; value: number | string } | null {
  const eq = text.indexOf('=');
  if (eq <= 0) return null;
  const value = tomlScalar(text.slice(eq + 1).trim());
  return value === undefined ? null : { key: text.slice(0, eq).trim(), value };
}

function tomlScalar(text: string): number | string | undefined {
  const t = text.trim();
  if (/^[+]?\d[\d_]*$/.test(t)) {
    const n = Number(t.replace(/_/g, ''));
    return Number.isSafeInteger(n) ? n : undefined;
  }
  const quoted = /^"((?:[^"\\]|\\.)*)"$|^'([^']*)'$/.exec(t);
  if (quoted) return quoted[1] ?? quoted[2]!;
  return /^[A-Za-z0-9_.-]+$/.test(t) && !/^(?:true|false)$/.test(t) ? t : undefined;
}

// A `#` outside a string starts a comment.
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}
