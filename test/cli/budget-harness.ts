import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli';
import { claudeProjectDirName } from '../../lib/hosts/claude/claude-paths';

/** A temp git repo, a temp HOME and a temp state dir, plus a runner for `git capsule …`. */
export interface BudgetSandbox {
  repo: string;
  home: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  run: (argv: string[], opts?: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string }) => Promise<{ code: number; stdout: string; stderr: string }>;
  /** Writes a transcript for `session` where Claude Code would put it for this repo. */
  writeTranscript: (session: string, records: unknown[]) => string;
}

/** Creates the sandbox; every path is under a fresh temp dir. */
export function makeSandbox(): BudgetSandbox {
  const root = realpathSync(tempDir('capsule-budget-'));
  const repo = join(root, 'repo');
  const home = join(root, 'home');
  const stateDir = join(root, 'state');
  mkdirSync(repo);
  mkdirSync(home);
  execFileSync('git', ['init', '-q', repo]);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, CAPSULE_STATE_DIR: stateDir, GIT_CONFIG_NOSYSTEM: '1' };
  const run: BudgetSandbox['run'] = (argv, opts = {}) =>
    runCli(argv, { cwd: opts.cwd ?? repo, env: { ...env, ...opts.env }, stdin: opts.stdin, now: new Date('2026-11-29T22:00:00Z') });
  const writeTranscript = (session: string, records: unknown[]) => {
    const dir = join(home, '.claude', 'projects', claudeProjectDirName(repo));
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${session}.jsonl`);
    writeFileSync(path, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    return path;
  };
  return { repo, home, stateDir, env, run, writeTranscript };
}

/** One main-chain assistant record reporting `input` input tokens. */
export function usageRecord(input: number, model = 'claude-sonnet-4-5'): Record<string, unknown> {
  return { type: 'assistant', uuid: `u${input}`, isSidechain: false, message: { model, usage: { input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } };
}
