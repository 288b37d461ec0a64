import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MarginSources } from '../budget/thresholds';

/** The margin inputs read from disk and git, with notes about what was ignored. */
export interface ReadMarginSources {
  sources: MarginSources;
  configPath: string;
  notes: string[];
}

/**
 * Reads `.capsule/config.json` in the project and `git config capsule.*`. With `validate`, the
 * file is checked against schemas/config.schema.json (ajv; the CLI does this, hooks skip the
 * compile cost and rely on the per-key guards in resolveMargins, which accept exactly what the
 * schema accepts). A missing file is fine; an unreadable or invalid one is a note. Never throws.
 */
export function readMarginSources(opts: { projectDir: string; cwd: string; env: NodeJS.ProcessEnv; validate: boolean }): ReadMarginSources {
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
    if (config !== undefined && opts.validate) notes.push(...schemaProblems(config, configPath));
  }
  return { sources: { config, gitConfig: readGitConfig(opts.cwd, opts.env, notes) }, configPath, notes };
}

function schemaProblems(config: unknown, path: string): string[] {
  // Loaded lazily: ajv costs tens of milliseconds to load and compile.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Ajv2020 = require('ajv/dist/2020').default as typeof import('ajv/dist/2020').default;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const schema = require('../../schemas/config.schema.json') as object;
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  if (validate(config)) return [];
  return (validate.errors ?? []).map((e) => `${path}${e.instancePath || ''}: ${e.message ?? 'is invalid'} (the value is ignored)`);
}

function readGitConfig(cwd: string, env: NodeJS.ProcessEnv, notes: string[]): Record<string, string> {
  let out: string;
  try {
    out = execFileSync('git', ['config', '--get-regexp', '^capsule\\.'], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    // Exit 1 means no capsule.* key at all; anything else (no git, no repo) is worth a note.
    const status = (err as { status?: number }).status;
    if (status !== 1) notes.push(`could not read git config capsule.* (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    return {};
  }
  const values: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) values[line.slice(0, space).toLowerCase()] = line.slice(space + 1);
  }
  return values;
}
