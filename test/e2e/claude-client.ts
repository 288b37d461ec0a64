import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensurePinnedClient, type PinnedClient } from './support/pinned-client';

/** The pinned real client; a test-only install, never a runtime dependency. */
export const CLAUDE_CODE_VERSION = '2.1.332';

/** The repository root (a marketplace: .claude-plugin/marketplace.json). */
export const REPO_ROOT = resolve(__dirname, '..', '..');

/** The plugin folder `npm run build` assembles, as the README's `claude --plugin-dir` names it. */
export const PLUGIN_DIR = join(REPO_ROOT, 'plugin');

const CLIENT_PREFIX = join(REPO_ROOT, '.e2e-client');

/** Claude Code, pinned: the wrapper package's postinstall may not run, so the native binary is run directly. */
export const CLAUDE_CLIENT: PinnedClient = {
  pkg: '@anthropic-ai/claude-code',
  version: CLAUDE_CODE_VERSION,
  prefix: CLIENT_PREFIX,
  bin: join('node_modules', '@anthropic-ai', 'claude-code-linux-x64', 'claude'),
  binEnv: 'CLAUDE_BIN',
  binWhat: `a claude ${CLAUDE_CODE_VERSION} binary`,
  timeoutMs: 180_000,
};

/**
 * Returns the path of the real `claude` binary: `CLAUDE_BIN` when set, else the pinned
 * version installed once into `.e2e-client/` (cached; about 10 s the first time).
 */
export function ensureClaudeClient(): string {
  return ensurePinnedClient(CLAUDE_CLIENT);
}

/** The repository's own end-to-end harness (test/harness/): fake model APIs and session drivers. */
export const HARNESS_ROOT = join(REPO_ROOT, 'test', 'harness');

/**
 * The Claude Code harness (`run.sh`, `validate.sh`, `fake-api.mjs`): `test/harness/claude` of
 * this repository, or `CAPSULE_HARNESS_DIR` when set (an override; null when it holds no run.sh).
 */
export function findHarness(): string | null {
  const dir = process.env.CAPSULE_HARNESS_DIR ? resolve(process.env.CAPSULE_HARNESS_DIR) : join(HARNESS_ROOT, 'claude');
  return existsSync(join(dir, 'run.sh')) ? dir : null;
}

/** Why the real-client suites cannot run (describeIfAvailable's reason), or null when the harness is there. */
export function harnessMissing(harness: string | null): string | null {
  if (harness) return null;
  return `CAPSULE_HARNESS_DIR=${process.env.CAPSULE_HARNESS_DIR ?? ''} holds no run.sh (unset it to use test/harness/claude)`;
}

/** One model request the fake API logged: its sequence number, the script rule it matched, and every string of its messages. */
export interface LoggedRequest {
  seq: number;
  rule: string;
  text: string;
}

/** The requests of a harness run's `requests.jsonl`, in order. */
export function loggedRequests(out: string): LoggedRequest[] {
  return readFileSync(join(out, 'requests.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((r) => r.body)
    .map((r) => ({ seq: r.seq as number, rule: r.rule as string, text: JSON.stringify(r.body.messages ?? []) }));
}

/** A harness run: its output folder and how `run.sh` ended (filled in by beforeAll). */
export interface HarnessSession {
  out: string;
  run: { status: number | null; stdout: string; stderr: string };
}

/**
 * Registers a beforeAll that runs one scripted session of the real client against the harness
 * (`fixtures/<script>`, else the fake API's default script; the prompts in order; the plugin
 * loaded with --plugin-dir unless `plugin: false`; `template()` a folder copied into the
 * session's repository; `setup()` a shell command the driver runs in it first, with the client's
 * HOME: an install step) and an afterAll that removes its output unless CAPSULE_E2E_KEEP is
 * set; the tests read the returned handle.
 */
export function harnessSession(
  harness: string,
  opts: { name: string; script?: string; prompts: string[]; env?: NodeJS.ProcessEnv; plugin?: boolean; template?: () => string; setup?: () => string },
): HarnessSession {
  const session: HarnessSession = { out: '', run: { status: null, stdout: '', stderr: '' } };
  let root = '';
  beforeAll(() => {
    const bin = ensureClaudeClient();
    root = mkdtempSync(join(tmpdir(), `capsule-e2e-${opts.name}-`));
    session.out = join(root, 'out');
    session.run = spawnSync(
      join(harness, 'run.sh'),
      [
        '-o', session.out,
        ...(opts.plugin === false ? [] : ['-P', PLUGIN_DIR]),
        ...(opts.script ? ['-S', join(__dirname, 'fixtures', opts.script)] : []),
        ...(opts.template ? ['-T', opts.template()] : []),
        ...(opts.setup ? ['-X', opts.setup()] : []),
        '-t', '90',
        ...opts.prompts.flatMap((p) => ['-p', p]),
      ],
      { encoding: 'utf8', env: { ...process.env, CLAUDE_BIN: bin, TMPDIR: clientTmp(root), ...opts.env }, timeout: 600_000 },
    );
  }, 660_000);
  afterAll(() => {
    if (process.env.CAPSULE_E2E_KEEP) process.stderr.write(`e2e logs kept in ${session.out}\n`);
    else if (root) rmSync(root, { recursive: true, force: true });
  });
  return session;
}

/**
 * A TMPDIR for the real client inside a session's own folder: the client writes there outside
 * HOME (claude-<uid>/… task output, cc-socks/<pid>.sock; harness README §2), and removing the
 * folder removes those too.
 */
export function clientTmp(root: string): string {
  const dir = join(root, 'tmp');
  mkdirSync(dir, { recursive: true });
  return dir;
}
