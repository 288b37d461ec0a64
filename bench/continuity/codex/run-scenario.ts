import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stagePlugin } from '../../../test/e2e/codex-client';
import { branchText, strings } from '../claude/probe-read';
import { spawnCollect, type ClaudeProbe as HostProbe } from '../claude/run-scenario';
import { findResumeText } from '../resume-lines';
import { isReset, isTurn, type Reset, type Scenario, type Step } from '../scenario-types';
import { PROJECT } from '../scenarios/project';
import { codexCannotRun, codexFakeScript } from './fake-script';

/** Where the real Codex client, its harness and the plugin under test are. */
export interface CodexDriverOptions {
  harness: string;
  codexBin: string;
  /** The plugin directory; its manifests, hooks, skills and dist/ are staged and installed through a local marketplace. */
  plugin: string;
  stepTimeoutSec?: number;
  keep?: boolean;
}

// The TUI looks idle while a turn's Stop hooks run, and refuses a /clear or /compact typed then.
// tui-step.sh waits only for that idle look, so after a typed turn it presses a key that does
// nothing (End, in the empty composer) until the hooks' 10 s timeout has surely passed.
const STOP_HOOKS_DONE = Array.from({ length: 12 }, () => '<key:End>');

/**
 * Runs one scenario through the real Codex CLI against the codex harness's fake API: turns
 * headless (`codex exec`, `exec resume`), and each reset in the TUI under tmux (the only place
 * `/clear` and `/compact` exist), typed with the turn before it, so that the TUI's client
 * process is the one whose session is reset, as a user would do it. Returns the resume text of
 * the first request after the probed reset and the memory branch's text.
 */
export async function runScenarioOnCodex(scenario: Scenario, reset: Reset, opts: CodexDriverOptions): Promise<HostProbe> {
  const cannot = codexCannotRun(scenario);
  if (cannot !== null) return { resumeText: null, branchText: '', out: '', hookErrors: '', skipped: cannot };
  const session = scenario.sessions[0]!;
  const root = mkdtempSync(join(tmpdir(), `continuity-codex-${scenario.name}-${reset}-`));
  const out = join(root, 'out');
  const template = join(root, 'template');
  const files = { ...PROJECT, ...scenario.repo };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(template, path)), { recursive: true });
    writeFileSync(join(template, path), text);
  }
  const scriptFile = join(root, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(codexFakeScript(scenario, session, scenario.probe.prompt, files), null, 2));
  const staged = stagePlugin(opts.plugin);
  const prompts = codexStepPrompts(session.steps, reset, scenario.probe.prompt);
  const args = ['-o', out, '-P', staged.dir, '-S', scriptFile, '-T', template, '-t', String(opts.stepTimeoutSec ?? 120), ...prompts.flatMap((p) => ['-p', p])];
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    CODEX_BIN: opts.codexBin,
    CAPSULE_CLI: join(opts.plugin, 'dist', 'git-capsule.js'),
    CXH_TUI_IDLE_S: '120',
    ...(process.env.PYENV_ROOT ? { PYENV_ROOT: process.env.PYENV_ROOT } : {}),
  };
  try {
    const run = await spawnCollect(join(opts.harness, 'run.sh'), args, env);
    const probe = readProbe(out);
    const repo = join(out, 'repo');
    const refused = tuiRefusals(out);
    const error = run.status !== 0 ? `run.sh exited ${run.status}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}` : refused ?? probe.error;
    const errorsLog = join(repo, '.git', 'capsule', 'errors.log');
    return {
      resumeText: probe.resumeText,
      branchText: branchText(repo),
      out: opts.keep ? root : '',
      hookErrors: existsSync(errorsLog) ? readFileSync(errorsLog, 'utf8') : '',
      ...(error ? { error } : {}),
    };
  } finally {
    staged.cleanup();
    if (!opts.keep) rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The harness steps of a run: turns as headless steps; a reset (in the middle, then the probed
 * one) as one TUI step that types the turn before it, waits for its Stop hooks, types the reset,
 * then the turn after it (or the probe). The TUI types one line: a prompt of several lines
 * before a reset runs headless instead; one after a reset is typed with its breaks as spaces.
 */
export function codexStepPrompts(steps: Step[], reset: Reset, probe: string): string[] {
  const all: Step[] = [...steps, { reset }, { prompt: probe, actions: [] }];
  const prompts: string[] = [];
  const typed = (p: string) => p.replace(/\s*\n\s*/g, ' ');
  let tui: string[] | null = null;
  all.forEach((step, i) => {
    const next = all[i + 1];
    if (isReset(step)) {
      // Open a TUI step with the turn before the reset, unless a TUI step is open already. A
      // prompt of several lines stays headless: typed, its line breaks would be lost, and they
      // are part of what the scenario tests (a pasted log); the reset then comes first.
      const last = prompts[prompts.length - 1];
      if (tui === null) tui = last !== undefined && !last.startsWith('@') && !last.includes('\n') ? [prompts.pop()!, ...STOP_HOOKS_DONE] : [];
      tui.push(`/${step.reset}`);
    } else if (!isTurn(step)) {
      throw new Error('the Codex driver cannot run shell steps (codexCannotRun should have skipped the scenario)');
    } else if (tui !== null) {
      tui.push(typed(step.prompt));
      // Another reset right after: the same TUI process goes on, as a user's would.
      if (next !== undefined && isReset(next)) tui.push(...STOP_HOOKS_DONE);
      else {
        prompts.push(`@tui:${tui.join(';;')}`);
        tui = null;
      }
    } else prompts.push(step.prompt);
  });
  return prompts;
}

function readProbe(out: string): { resumeText: string | null; error?: string } {
  const log = join(out, 'requests.jsonl');
  if (!existsSync(log)) return { resumeText: null, error: 'the fake API logged no request' };
  const requests = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { rule?: string; body?: { input?: unknown[] } });
  const first = requests.find((r) => r.rule === 'probe');
  if (first === undefined) return { resumeText: null, error: 'no request carried the probe prompt' };
  return { resumeText: findResumeText(strings(first.body?.input ?? [], [])) };
}

// A reset the TUI refused (typed while a task still ran) is a run that did not test the reset.
function tuiRefusals(out: string): string | undefined {
  try {
    const screens = readFileSync(join(out, 'summary.txt'), 'utf8').match(/step \d+:/g) ?? [];
    for (let i = 1; i <= screens.length; i++) {
      const file = join(out, `step-${i}.screen.txt`);
      if (existsSync(file) && /is disabled while a task is in progress/.test(readFileSync(file, 'utf8'))) return `step ${i}: the TUI refused a reset typed while a task ran`;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
