import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { tempDir } from '../support/temp-dirs';
import { HARNESS_ROOT, REPO_ROOT, clientTmp } from './claude-client';
import { ensurePinnedClient, type PinnedClient } from './support/pinned-client';

/** The pinned real client; a test-only install, never a runtime dependency (about 190 MB). */
export const COPILOT_VERSION = '1.0.102';

const CLIENT_PREFIX = join(REPO_ROOT, '.e2e-copilot');

/** GitHub Copilot CLI, pinned: npm installs the platform package (an optional dependency) whose native binary the launcher runs; no install script has to run. */
export const COPILOT_CLIENT: PinnedClient = {
  pkg: '@github/copilot',
  version: COPILOT_VERSION,
  prefix: CLIENT_PREFIX,
  bin: join('node_modules', '.bin', 'copilot'),
  binEnv: 'COPILOT_BIN',
  binWhat: `a copilot ${COPILOT_VERSION} launcher`,
  timeoutMs: 300_000,
};

/**
 * The real `copilot` launcher: `COPILOT_BIN` when set, else the pinned version installed once
 * into `.e2e-copilot/` (ignored by git; about 10 s the first time).
 */
export function ensureCopilotClient(): string {
  return ensurePinnedClient(COPILOT_CLIENT);
}

/** One model request the fake API logged: its number, the rule it matched, and its messages. */
export interface CopilotRequest {
  seq: number;
  rule: string;
  messages: Array<{ role?: string; content?: unknown }>;
  /** The whole `messages` array as JSON. */
  text: string;
}

/** The requests of a run's `requests.jsonl`, in order. */
export function copilotRequests(out: string): CopilotRequest[] {
  return readFileSync(join(out, 'requests.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((r) => r.body && Array.isArray(r.body.messages))
    .map((r) => ({ seq: r.seq, rule: r.rule, messages: r.body.messages, text: JSON.stringify(r.body.messages) }));
}

/** The text of the message that carries the resume block, or '' (a sessionStart's context is a user message of its own). */
export function copilotResumeMessage(request: CopilotRequest): string {
  for (const m of request.messages) {
    const text = typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? (m.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('') : '';
    if (text.includes('=== GIT-CAPSULE RESUME')) return text;
  }
  return '';
}

/** A run: its output folder (requests.jsonl, repo/, home/, screens) and how the TUI driver ended. */
export interface CopilotRun {
  out: string;
  repo: string;
  home: string;
  run: { status: number | null; stdout: string; stderr: string };
}

/**
 * Runs one interactive session of the real Copilot CLI, offline, against the harness's fake
 * Chat Completions server with `script` (a file of test/e2e/fixtures, or an absolute path),
 * typing `inputs` in turn (test/harness/copilot/tui.mjs). The repository (`repo/`, one commit
 * on main, or `opts.repo`, an existing one other clients may work in too) is a trusted folder
 * of the throwaway home (`home/`); `setup(run)` registers the hooks before the client starts. `$HOME/copilot-again.sh` runs the same client against the same server, for a
 * second session a scripted command starts. The caller removes `out` (removeRun).
 */
export function runCopilotSession(opts: { name: string; script: string; inputs: string[]; setup: (run: { repo: string; home: string }) => void; env?: NodeJS.ProcessEnv; repo?: string }): CopilotRun {
  const bin = ensureCopilotClient();
  // CAPSULE_E2E_KEEP naming a folder keeps the run there to read (tempDir's go at the file's end).
  const keep = process.env.CAPSULE_E2E_KEEP;
  const root = keep && isAbsolute(keep) && existsSync(keep) ? mkdtempSync(join(keep, `capsule-copilot-${opts.name}-`)) : tempDir(`capsule-copilot-${opts.name}-`);
  const out = join(root, 'out');
  const home = join(out, 'home');
  const repo = opts.repo ?? join(out, 'repo');
  mkdirSync(join(home, '.copilot'), { recursive: true });
  if (opts.repo === undefined) {
    mkdirSync(repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: { ...process.env, HOME: home } });
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 'harness@example.invalid');
    git('config', 'user.name', 'harness');
    writeFileSync(join(repo, 'README.md'), '# scratch\n');
    git('add', '-A');
    git('commit', '-qm', 'init');
  }
  writeFileSync(join(home, '.copilot', 'config.json'), `${JSON.stringify({ trustedFolders: [repo] })}\n`);
  opts.setup({ repo, home });
  const portFile = join(out, 'fake-api.port');
  const server = spawn(process.execPath, [join(HARNESS_ROOT, 'copilot', 'fake-api.mjs'), '--port-file', portFile, '--log', join(out, 'requests.jsonl'), '--script', isAbsolute(opts.script) ? opts.script : join(__dirname, 'fixtures', opts.script), '--lifetime', '900'], { stdio: 'ignore' });
  try {
    // Up to 30 s for the fake API's node to start and write its port (the harness test allows as much).
    for (let i = 0; i < 300 && !existsSync(portFile); i++) spawnSync('sleep', ['0.1']);
    const port = readFileSync(portFile, 'utf8').trim();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${port}/v1`,
      COPILOT_PROVIDER_API_KEY: 'harness',
      COPILOT_MODEL: 'gpt-4o',
      COPILOT_OFFLINE: 'true',
      TMPDIR: clientTmp(root),
      // A turn that runs a second real session takes over 40 s on a loaded machine.
      CPH_TUI_IDLE_S: '120',
      ...opts.env,
    };
    // A second session the script may start from a command (`"$HOME/copilot-again.sh" -p …`):
    // the client, wired to the same server, whatever the tool's shell keeps of the environment.
    const again = join(home, 'copilot-again.sh');
    const keep = ['HOME', 'COPILOT_PROVIDER_BASE_URL', 'COPILOT_PROVIDER_API_KEY', 'COPILOT_MODEL', 'COPILOT_OFFLINE'].map((k) => `${k}='${env[k]}'`).join(' ');
    writeFileSync(again, `#!/bin/sh\nexec env ${keep} '${bin}' "$@"\n`, { mode: 0o755 });
    const run = spawnSync(process.execPath, [join(HARNESS_ROOT, 'copilot', 'tui.mjs'), bin, join(out, 'tui'), opts.inputs.join(';;'), '--allow-all-tools', '--allow-all-paths'], { cwd: repo, encoding: 'utf8', env, timeout: 900_000 });
    return { out, repo, home, run: { status: run.status, stdout: run.stdout, stderr: run.stderr } };
  } finally {
    server.kill();
  }
}
