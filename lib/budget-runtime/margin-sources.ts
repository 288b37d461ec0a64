import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import validateConfigSchema from '../budget/generated/config-schema.js';
import { isMargin, MARGIN_KEYS, type MarginSources } from '../budget/thresholds';

/** The margin inputs read from disk and git, with notes about what was ignored. */
export interface ReadMarginSources {
  sources: MarginSources;
  configPath: string;
  notes: string[];
}

/**
 * Reads `.capsule/config.json` in the project and `git config capsule.*`. The file is checked
 * against schemas/config.schema.json (standalone ajv code generated at build time, ~1 ms to
 * load); each schema problem is a note, and resolveMargins ignores the values the schema
 * refuses. A missing file is fine; an unreadable or invalid one is a note. Never throws.
 */
export function readMarginSources(opts: {
  projectDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `git config capsule.*` values read earlier (UserPromptSubmit starts no git process); read live when absent. */
  gitConfig?: Readonly<Record<string, string>>;
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
  // A hook runs on every prompt: skip the git process when the file already sets both margins.
  const complete = isRecord(config) && MARGIN_KEYS.every((k) => isMargin(config[k]));
  const gitConfig = complete ? {} : (opts.gitConfig ?? readCapsuleGitConfig(opts.cwd, opts.env, notes));
  return { sources: { config, gitConfig }, configPath, notes };
}

function schemaProblems(config: unknown, path: string): string[] {
  if (validateConfigSchema(config)) return [];
  return (validateConfigSchema.errors ?? []).map((e) => `${path}${e.instancePath || ''}: ${e.message ?? 'is invalid'} (the value is ignored)`);
}

/** Longest wait for the synchronous `git config` read in a hook, in ms. */
export const GIT_CONFIG_TIMEOUT_MS = 1000;

/** Reads every `capsule.*` key of git config (keys lower-cased, as git prints them); failures become notes. */
export function readCapsuleGitConfig(cwd: string, env: NodeJS.ProcessEnv, notes: string[]): Record<string, string> {
  let out: string;
  try {
    // Bounded: a synchronous call blocks the hook's own budget timer, so a hung git would hold the
    // hook until the host kills it (test/hardening/slow-git). A config read takes milliseconds.
    // Loaded here: UserPromptSubmit bundles this file but never starts git, and node:child_process
    // costs ~4 ms at every prompt.
    // A lazy require: this module must not load at start.
    const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
    out = execFileSync('git', ['config', '--get-regexp', '^capsule\\.'], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: GIT_CONFIG_TIMEOUT_MS });
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
