import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import validateConfigSchema from '../budget/generated/config-schema.js';
import type { MarginSources } from '../budget/thresholds';

/** The margin inputs read from disk and git, with notes about what was ignored. */
export interface ReadMarginSources {
  sources: MarginSources;
  configPath: string;
  notes: string[];
}

/**
 * Reads `.capsule/config.json` in the project, beside the `git config capsule.*` values the caller read. The file is checked
 * against schemas/config.schema.json (standalone ajv code generated at build time, ~1 ms to
 * load); each schema problem is a note, and resolveMargins ignores the values the schema
 * refuses. A missing file is fine; an unreadable or invalid one is a note. Never throws.
 */
export function readMarginSources(opts: {
  projectDir: string;
  /** `git config capsule.*` values, read by the caller through the one cached config reader (lib/local-state). */
  gitConfig: Readonly<Record<string, string>>;
}): ReadMarginSources {
  const notes: string[] = [];
  const configPath = join(opts.projectDir, '.capsule', 'config.json');
  let config: unknown;
  let text: string | null = null;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch {
    text = null;
  }
  if (text !== null) {
    try {
      config = JSON.parse(text);
    } catch (err) {
      notes.push(`ignored ${configPath}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    if (config !== undefined) notes.push(...schemaProblems(config, configPath));
  }
  return { sources: { config, gitConfig: opts.gitConfig }, configPath, notes };
}

function schemaProblems(config: unknown, path: string): string[] {
  if (validateConfigSchema(config)) return [];
  return (validateConfigSchema.errors ?? []).map((e) => `${path}${e.instancePath || ''}: ${e.message ?? 'is invalid'} (the value is ignored)`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
