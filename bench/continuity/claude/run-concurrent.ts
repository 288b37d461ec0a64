import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StreamHarness, type StreamSession } from '../../../test/e2e/support/stream-session';
import { isReset, type Reset, type Scenario, type SessionScript } from '../scenario-types';
import { PROJECT } from '../scenarios/project';
import { fakeScript } from './fake-script';
import { branchText, readProbe } from './probe-read';
import type { ClaudeDriverOptions, ClaudeProbe } from './run-scenario';

/**
 * Runs a scenario of several sessions open at once in one repository through the real Claude
 * Code client: one long-lived stream-json client process per session (the e2e suites' driver,
 * test/e2e/support/stream-session.ts, on the harness's fake API in a loopback-only namespace),
 * their steps interleaved by `scenario.order`, then the probed session's reset and probe inside
 * its own client process (a `/clear` there is the same process with a new session id, as in a
 * terminal). Returns what the one-session driver returns.
 */
export async function runConcurrentOnClaude(scenario: Scenario, reset: Reset, opts: ClaudeDriverOptions): Promise<ClaudeProbe> {
  const probePrompt = scenario.probe.prompt;
  const h = await StreamHarness.start({
    name: `continuity-${scenario.name}-${reset}`,
    script: fakeScript(scenario, scenario.sessions, probePrompt),
    turnTimeoutMs: (opts.stepTimeoutSec ?? 240) * 1000,
    env: { CAPSULE_CLI: join(opts.plugin, 'dist', 'git-capsule.js'), ...(process.env.PYENV_ROOT ? { PYENV_ROOT: process.env.PYENV_ROOT } : {}) },
  });
  let error: string | undefined;
  try {
    writeProject(h.repo, { ...PROJECT, ...scenario.repo });
    const clients = new Map<string, { script: SessionScript; client: StreamSession; next: number }>();
    for (const script of scenario.sessions) clients.set(script.name, { script, client: h.session({ name: script.name, pluginDir: opts.plugin }), next: 0 });
    const order = scenario.order ?? scenario.sessions.flatMap((s) => s.steps.map(() => s.name));
    try {
      for (const name of order) {
        const c = clients.get(name);
        const step = c?.script.steps[c.next++];
        if (c === undefined || step === undefined) throw new Error(`order names a step session ${name} does not have`);
        await c.client.send(isReset(step) ? `/${step.reset}` : step.prompt);
      }
      const probed = clients.get(scenario.probe.session ?? scenario.sessions[0]!.name);
      if (probed === undefined) throw new Error(`the probe names no session of the scenario (${scenario.probe.session})`);
      await probed.client.send(`/${reset}`);
      await probed.client.send(probePrompt);
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
