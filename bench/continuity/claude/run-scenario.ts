import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isReset, needsLiveSessions, type Reset, type Scenario } from '../scenario-types';
import type { ProbeResult } from '../score';
import { PROJECT } from '../scenarios/project';
import { fakeScript } from './fake-script';
import { branchText, readProbe } from './probe-read';
import { runConcurrentOnClaude } from './run-concurrent';

/** Where the real client, the harness and the plugin under test are. */
export interface ClaudeDriverOptions {
  harness: string;
  claudeBin: string;
  /** The plugin directory (its dist/ bundles are what runs). */
  plugin: string;
  stepTimeoutSec?: number;
  /** Keep the run's folder (requests, transcripts, the repository) and return its path. */
  keep?: boolean;
}

/** A probe of one scenario through the real client, with where its logs were and the hooks' error log. */
export interface ClaudeProbe extends ProbeResult {
  out: string;
  hookErrors: string;
}

/**
 * Runs one scenario through the real Claude Code client against the fake API of the
 * repository's harness (test/harness/claude, found by main.ts: `run.sh`, one `claude -p` per
 * step of one session; several concurrent sessions, and the shapes that need a live client
 * process, go to run-concurrent.ts), then the reset and the probe prompt, and returns the resume text of the
 * first request after the reset and the memory branch's text.
 */
export async function runScenarioOnClaude(scenario: Scenario, reset: Reset, opts: ClaudeDriverOptions): Promise<ClaudeProbe> {
  if (needsLiveSessions(scenario)) return runConcurrentOnClaude(scenario, reset, opts);
  const session = scenario.sessions[0]!;
  const root = mkdtempSync(join(tmpdir(), `continuity-${scenario.name}-${reset}-`));
  const out = join(root, 'out');
  const template = join(root, 'template');
  for (const [path, text] of Object.entries({ ...PROJECT, ...scenario.repo })) {
    mkdirSync(dirname(join(template, path)), { recursive: true });
    writeFileSync(join(template, path), text);
  }
  const scriptFile = join(root, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(fakeScript(scenario, session, scenario.probe.prompt), null, 2));
  const prompts = stepPrompts(session.steps, reset, scenario.probe.prompt);
  const args = ['-o', out, '-P', opts.plugin, '-S', scriptFile, '-T', template, '-t', String(opts.stepTimeoutSec ?? 90), ...prompts.flatMap((p) => ['-p', p])];
  // A hermetic environment: the client, the CLI the authored-capsule scenario runs, and the
  // interpreter managers' roots (pyenv's shims find their Python through PYENV_ROOT, not HOME).
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    CLAUDE_BIN: opts.claudeBin,
    CAPSULE_CLI: join(opts.plugin, 'dist', 'git-capsule.js'),
    ...(process.env.PYENV_ROOT ? { PYENV_ROOT: process.env.PYENV_ROOT } : {}),
  };
  const run = await spawnCollect(join(opts.harness, 'run.sh'), args, env);
  try {
    const probe = readProbe(out, scenario.probe.prompt);
    const repo = join(out, 'repo');
    const error = run.status === 0 ? probe.error : `run.sh exited ${run.status}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`;
    return {
      resumeText: probe.resumeText,
      branchText: branchText(repo),
      out: opts.keep ? root : '',
      hookErrors: existsSync(join(repo, '.git', 'capsule', 'errors.log')) ? readFileSync(join(repo, '.git', 'capsule', 'errors.log'), 'utf8') : '',
      ...(error ? { error } : {}),
    };
  } finally {
    if (!opts.keep) rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The prompts of the run: each turn, each reset in the middle, then the probed reset and the
 * probe. After a /clear the old session id is gone, so every later step continues the newest
 * session (`@continue:`) instead of resuming the first one.
 */
export function stepPrompts(steps: Scenario['sessions'][number]['steps'], reset: Reset, probe: string): string[] {
  const prompts: string[] = [];
  let cleared = false;
  const push = (p: string) => prompts.push(cleared && prompts.length > 0 ? `@continue:${p}` : p);
  for (const step of steps) {
    if (isReset(step)) {
      push(`/${step.reset}`);
      if (step.reset === 'clear') cleared = true;
    } else if ('prompt' in step) push(step.prompt);
    else throw new Error('a shell step needs the live driver (run-concurrent.ts)');
  }
  push(`/${reset}`);
  if (reset === 'clear') cleared = true;
  push(probe);
  return prompts;
}

export function spawnCollect(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
