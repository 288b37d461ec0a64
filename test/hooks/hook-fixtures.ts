import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temporary git repository with one commit, its runtime dir diverted to a temp folder. */
export interface TempRepo {
  dir: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  cleanup: () => void;
}

/** Creates a real repository with the real git CLI; `env` diverts CAPSULE_STATE_DIR. */
export function makeTempRepo(): TempRepo {
  const root = mkdtempSync(join(tmpdir(), 'capsule-hook-'));
  const dir = join(root, 'repo');
  const stateDir = join(root, 'state');
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  git(dir, 'config', 'user.email', 'test@example.invalid');
  git(dir, 'config', 'user.name', 'test');
  writeFileSync(join(dir, 'README.md'), '# scratch\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: root, CAPSULE_STATE_DIR: stateDir, GIT_CONFIG_NOSYSTEM: '1' };
  return { dir, stateDir, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs git in `dir` and returns its trimmed stdout. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

/** A temp dir that is not inside any repository. */
export function makeTempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'capsule-nogit-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The error log's lines, or [] when there is none. */
export function readErrorLog(stateDir: string): string[] {
  try {
    return readFileSync(join(stateDir, 'errors.log'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** A real payload from the harness, adapted to the test's repo and transcript. */
export function payload(event: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    session_id: 'be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1',
    transcript_path: '/nonexistent/transcript.jsonl',
    cwd: '/nonexistent',
    hook_event_name: event,
  };
  const extra: Record<string, Record<string, unknown>> = {
    SessionStart: { source: 'startup' },
    Stop: { stop_hook_active: false, last_assistant_message: 'done', permission_mode: 'acceptEdits' },
    PreCompact: { trigger: 'manual', custom_instructions: null },
    UserPromptSubmit: { prompt: 'hello' },
    SessionEnd: { reason: 'other' },
  };
  return { ...base, ...extra[event], ...overrides };
}
