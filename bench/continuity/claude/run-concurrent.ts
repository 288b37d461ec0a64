import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StreamHarness, type StreamSession } from '../../../test/e2e/support/stream-session';
import { isReset, isShell, type Reset, type Scenario, type SessionScript, type ShellStep } from '../scenario-types';
import { PROJECT } from '../scenarios/project';
import { expandVars } from '../vars';
import { fakeScript } from './fake-script';
import { branchText, readProbe } from './probe-read';
import type { ClaudeDriverOptions, ClaudeProbe } from './run-scenario';

/**
 * Runs a scenario through the real Claude Code client with one long-lived stream-json client
 * process per session (the e2e suites' driver, test/e2e/support/stream-session.ts, on the
 * harness's fake API in a loopback-only namespace): the setup commands, then the sessions' steps
 * interleaved by `scenario.order` (a session's client starts at its first step, in its own folder;
 * one that `resumes` another starts as `claude --resume <id>` after that one's client exited; a
 * shell step runs outside the client), then the probed session's reset (with any `alsoReset`
 * sessions' at the same moment) and the probe inside its own client process (a `/clear` there is
 * the same process with a new session id, as in a terminal). Returns what the run.sh driver returns.
 */
export async function runConcurrentOnClaude(raw: Scenario, reset: Reset, opts: ClaudeDriverOptions): Promise<ClaudeProbe> {
  const scenario = expandVars(raw);
  const probePrompt = scenario.probe.prompt;
  const cli = join(opts.plugin, 'dist', 'git-capsule.js');
  const h = await StreamHarness.start({
    name: `continuity-${scenario.name}-${reset}`,
    script: fakeScript(scenario, scenario.sessions, probePrompt),
    turnTimeoutMs: (opts.stepTimeoutSec ?? 240) * 1000,
    // The task tools (TaskCreate, TaskUpdate, TaskList) are on by default in the interactive
    // client; a headless one offers them with CLAUDE_CODE_ENABLE_TODO_TOOLS.
    env: { CAPSULE_CLI: cli, CLAUDE_CODE_ENABLE_TODO_TOOLS: '1', ...(process.env.PYENV_ROOT ? { PYENV_ROOT: process.env.PYENV_ROOT } : {}) },
  });
  let error: string | undefined;
  try {
    writeProject(h.repo, { ...PROJECT, ...scenario.repo });
    const clients = new Map<string, { script: SessionScript; client: StreamSession | null; next: number }>();
    for (const script of scenario.sessions) clients.set(script.name, { script, client: null, next: 0 });
    const folder = (s: SessionScript) => (s.cwd === undefined ? h.repo : join(h.repo, s.cwd));
    const start = async (name: string): Promise<StreamSession> => {
      const c = clients.get(name)!;
      if (c.client !== null) return c.client;
      let args: string[] = [];
      if (c.script.resumes !== undefined) {
        const earlier = clients.get(c.script.resumes)?.client;
        const id = earlier?.sessionId;
        if (earlier == null || id === undefined) throw new Error(`session ${name} resumes ${c.script.resumes}, which has no session id yet`);
        await earlier.close();
        args = ['--resume', id];
      }
      c.client = h.session({ name, pluginDir: opts.plugin, cwd: folder(c.script), env: c.script.env, args });
      return c.client;
    };
    try {
      for (const step of scenario.setup ?? []) runShell(step, h.repo, cli);
      const order = scenario.order ?? scenario.sessions.flatMap((s) => s.steps.map(() => s.name));
      for (const name of order) {
        const c = clients.get(name);
        const step = c?.script.steps[c.next++];
        if (c === undefined || step === undefined) throw new Error(`order names a step session ${name} does not have`);
        if (isShell(step)) runShell(step, step.cwd === undefined ? folder(c.script) : h.repo, cli);
        else await (await start(name)).send(isReset(step) ? `/${step.reset}` : step.prompt);
      }
      const probed = scenario.probe.session ?? scenario.sessions[0]!.name;
      if (!clients.has(probed)) throw new Error(`the probe names no session of the scenario (${probed})`);
      const resetting = [probed, ...(scenario.probe.alsoReset ?? [])];
      const started = await Promise.all(resetting.map((n) => start(n)));
      await Promise.all(started.map((client) => client.send(`/${reset}`)));
      await started[0]!.send(probePrompt);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const probe = readProbe(h.out, probePrompt);
    const errorsLog = join(h.repo, '.git', 'capsule', 'errors.log');
    if (opts.keep) process.env.CAPSULE_E2E_KEEP = '1';
    const result: ClaudeProbe = {
      resumeText: probe.resumeText,
      branchText: branchText(h.repo),
      out: opts.keep ? h.out : '',
      hookErrors: existsSync(errorsLog) ? readFileSync(errorsLog, 'utf8') : '',
    };
    const why = error ?? probe.error;
    return why === undefined ? result : { ...result, error: why };
  } finally {
    await h.close();
  }
}

// A setup or shell step: `sh -c` in `base` (or the step's cwd below the repository), with the CLI
// under test as $CAPSULE_CLI. A failing command fails the run: its scenario did not happen.
function runShell(step: ShellStep, base: string, cli: string): void {
  const repo = base;
  const cwd = step.cwd === undefined ? repo : join(repo, step.cwd);
  const r = spawnSync('sh', ['-c', step.shell], { cwd, env: { ...process.env, CAPSULE_CLI: cli, ...step.env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`shell step failed (exit ${r.status}): ${step.shell.slice(0, 80)}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' | ')}`);
}

// The scenario's project as the one-session driver's template gives it: the files, one commit.
function writeProject(repo: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, stdio: 'ignore' });
  git('add', '-A');
  git('commit', '-qm', 'project');
}
