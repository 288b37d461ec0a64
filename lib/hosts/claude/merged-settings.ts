import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One settings file that was looked at. */
export interface SettingsFile {
  path: string;
  status: 'read' | 'missing' | 'invalid';
}

/** Claude's merged settings as far as the budget needs them, and what was read. */
export interface ClaudeSettings {
  merged: Record<string, unknown>;
  files: SettingsFile[];
  notes: string[];
}

/**
 * Reads Claude Code's user, project and local settings (`~/.claude/settings.json`, or
 * `$CLAUDE_CONFIG_DIR/settings.json`,
 * `<project>/.claude/settings.json`, `<project>/.claude/settings.local.json`) and merges them
 * with later files winning per key, objects merged key by key. Managed settings and `--settings`
 * are invisible to a hook, so they are not read. A file that is missing is skipped; one that is
 * not a JSON object is skipped with a note. Never throws.
 */
export function readClaudeSettings(opts: { env: Readonly<Record<string, string | undefined>>; projectDir: string }): ClaudeSettings {
  const userDir = opts.env.CLAUDE_CONFIG_DIR || (opts.env.HOME ? join(opts.env.HOME, '.claude') : null);
  const paths = [
    ...(userDir ? [join(userDir, 'settings.json')] : []),
    join(opts.projectDir, '.claude', 'settings.json'),
    join(opts.projectDir, '.claude', 'settings.local.json'),
  ];
  const files: SettingsFile[] = [];
  const notes: string[] = [];
  let merged: Record<string, unknown> = {};
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      files.push({ path, status: 'missing' });
      continue;
    }
    const value = parseObject(text);
    if (value === null) {
      files.push({ path, status: 'invalid' });
      notes.push(`ignored ${path}: not a JSON object`);
      continue;
    }
    files.push({ path, status: 'read' });
    merged = mergeSettings(merged, value);
  }
  return { merged, files, notes };
}

/** Merges two settings objects: `later` wins per key; plain objects merge recursively. */
export function mergeSettings(earlier: Record<string, unknown>, later: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...earlier };
  for (const [key, value] of Object.entries(later)) {
    const before = out[key];
    out[key] = isRecord(before) && isRecord(value) ? mergeSettings(before, value) : value;
  }
  return out;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
