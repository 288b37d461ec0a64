import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { HARNESS_ROOT, REPO_ROOT, clientTmp } from './claude-client';
import { ensurePinnedClient, type PinnedClient } from './support/pinned-client';

/** The pinned real client; a test-only install, never a runtime dependency (about 400 MB). */
export const CODEX_VERSION = '0.169.0';

const CLIENT_PREFIX = join(REPO_ROOT, '.e2e-codex');

/** Codex, pinned: the package has no install script; its launcher finds the native binary in the platform package at run time. */
export const CODEX_CLIENT: PinnedClient = {
  pkg: '@openai/codex',
  version: CODEX_VERSION,
  prefix: CLIENT_PREFIX,
  bin: join('node_modules', '.bin', 'codex'),
  binEnv: 'CODEX_BIN',
  binWhat: `a codex ${CODEX_VERSION} launcher`,
  timeoutMs: 300_000,
};

/**
 * The real `codex` launcher: `CODEX_BIN` when set, else the pinned version installed once into
 * `.e2e-codex/` (ignored by git; about 12 s the first time).
 */
export function ensureCodexClient(): string {
  return ensurePinnedClient(CODEX_CLIENT);
}

/**
 * The Codex harness (`run.sh`, `validate.sh`, `fake-api.mjs`): `test/harness/codex` of this
 * repository, or `CAPSULE_CODEX_HARNESS_DIR` when set (an override; null when it holds no run.sh).
 */
export function findCodexHarness(): string | null {
  const dir = process.env.CAPSULE_CODEX_HARNESS_DIR ? resolve(process.env.CAPSULE_CODEX_HARNESS_DIR) : join(HARNESS_ROOT, 'codex');
  return existsSync(join(dir, 'run.sh')) ? dir : null;
}

/**
 * `describe` when the harness (and, for TUI suites, tmux) is there; otherwise one failing test
 * naming what is missing: a real-client suite never skips.
 */
export function describeWithCodex(name: string, needs: { tmux?: boolean }, body: (harness: string) => void): void {
  const harness = findCodexHarness();
  const missing =
    harness === null
      ? `the codex harness (CAPSULE_CODEX_HARNESS_DIR=${process.env.CAPSULE_CODEX_HARNESS_DIR} holds no run.sh; unset it to use test/harness/codex)`
      : needs.tmux && spawnSync('tmux', ['-V']).status !== 0
        ? 'tmux (apt-get install tmux)'
        : null;
  if (missing === null) return describe(name, () => body(harness!));
  describe(name, () => it('has what the real-client suite needs', () => expect(`missing: ${missing}`).toBe('present')));
}

/**
 * The plugin as a marketplace install sees it: plugin/, the folder `npm run build` assembles and
 * .agents/plugins/marketplace.json points at, copied to a temp dir (run.sh installs it from there).
 */
export function stagePlugin(from: string = REPO_ROOT): { dir: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'capsule-codex-plugin-'));
  const dir = join(root, 'capsule');
  cpSync(join(from, 'plugin'), dir, { recursive: true });
  return { dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** One model request the fake API logged: its sequence number, the rule it matched, its headers and its `input` as text. */
export interface CodexRequest {
  seq: number;
  rule: string;
  sessionId: string | undefined;
  input: Array<{ role?: string; type?: string; content?: unknown }>;
  text: string;
}

/** The requests of a run's `requests.jsonl`, in order. */
export function codexRequests(out: string): CodexRequest[] {
  return readFileSync(join(out, 'requests.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((r) => r.body)
    .map((r) => ({ seq: r.seq, rule: r.rule, sessionId: r.headers?.['session-id'], input: r.body.input ?? [], text: JSON.stringify(r.body.input ?? []) }));
}

/** The text of the developer message that carries the resume block, or '' (Codex injects hook context as developer messages). */
export function resumeMessage(request: CodexRequest): string {
  for (const item of request.input) {
    if (item.role !== 'developer' || !Array.isArray(item.content)) continue;
    const text = (item.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
    if (text.includes('=== GIT-CAPSULE RESUME')) return text;
  }
  return '';
}

/** A harness run: its output folder and how `run.sh` ended. */
export interface CodexRun {
  out: string;
  run: { status: number | null; stdout: string; stderr: string };
}

/** Options of one Codex harness run (runCodexSession, startCodexSession). */
export interface CodexRunOptions {
  name: string;
  script: string;
  prompts: string[];
  args?: string[];
  plugin?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The run.sh command line of a run, and what to clean up after it. */
function codexRunCommand(harness: string, opts: CodexRunOptions): { out: string; args: string[]; env: NodeJS.ProcessEnv; cleanup: () => void } {
  const bin = ensureCodexClient();
  // run.sh wipes its -o folder: the client's TMPDIR sits beside it, and the file's end removes both.
  // CAPSULE_E2E_KEEP naming a folder keeps the run there to read (tempDir's go at the file's end).
  const keep = process.env.CAPSULE_E2E_KEEP;
  const root = keep && isAbsolute(keep) && existsSync(keep) ? mkdtempSync(join(keep, `capsule-codex-${opts.name}-`)) : tempDir(`capsule-codex-${opts.name}-`);
  const out = join(root, 'out');
  const staged = opts.plugin === false ? null : stagePlugin();
  const script = isAbsolute(opts.script) ? opts.script : join(__dirname, 'fixtures', opts.script);
  return {
    out,
    args: ['-o', out, ...(staged ? ['-P', staged.dir] : []), '-S', script, '-t', '90', ...(opts.args ?? []), ...opts.prompts.flatMap((p) => ['-p', p])],
    env: { ...process.env, CODEX_BIN: bin, TMPDIR: clientTmp(root), ...opts.env },
    cleanup: () => staged?.cleanup(),
  };
}

/**
 * Runs one scripted session of the real Codex client against the harness (`run.sh -o … -S …
 * -p …` plus `args`, with the plugin staged and installed through a local marketplace unless
 * `args` wires the hooks otherwise). Returns the run; the caller removes `out`.
 */
export function runCodexSession(harness: string, opts: CodexRunOptions): CodexRun {
  const { out, args, env, cleanup } = codexRunCommand(harness, opts);
  try {
    const run = spawnSync(join(harness, 'run.sh'), args, { encoding: 'utf8', env, timeout: 900_000 });
    return { out, run: { status: run.status, stdout: run.stdout, stderr: run.stderr } };
  } finally {
    cleanup();
  }
}

/** runCodexSession without blocking: the run goes on while the test drives another client. */
export function startCodexSession(harness: string, opts: CodexRunOptions): Promise<CodexRun> {
  const { out, args, env, cleanup } = codexRunCommand(harness, opts);
  return new Promise((resolveRun) => {
    const child = spawn(join(harness, 'run.sh'), args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGTERM'), 900_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      cleanup();
      resolveRun({ out, run: { status, stdout, stderr } });
    });
  });
}

/** Removes a run's output unless CAPSULE_E2E_KEEP is set (then says where it is). */
export function removeRun(out: string): void {
  if (!out) return;
  if (process.env.CAPSULE_E2E_KEEP) process.stderr.write(`e2e logs kept in ${out}\n`);
  else rmSync(out, { recursive: true, force: true });
}
