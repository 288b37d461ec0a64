import { readFileSync, rmSync } from 'node:fs';
import { tempDir } from '../support/temp-dirs';
import { join } from 'node:path';
import { parseCapsule } from '../../lib/capsule/parse';
import type { CapsuleDocument } from '../../lib/capsule/types';
import type { HookEventName } from '../../lib/hosts/host';
import { runHook, type HookSpec } from '../../lib/hooks/run-hook';
import { makeIsolatedRepo, runGit } from '../support/repo';

/** A temporary git repository with one commit, its runtime dir diverted to a temp folder. */
export interface TempRepo {
  dir: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  cleanup: () => void;
}

/** Creates a real repository with the real git CLI, isolated from the developer's config; `env` diverts CAPSULE_STATE_DIR. */
export function makeTempRepo(): TempRepo {
  const repo = makeIsolatedRepo({ prefix: 'capsule-hook-', identity: { name: 'test', email: 'test@example.invalid' }, files: { 'README.md': '# scratch\n' } });
  return { dir: repo.dir, stateDir: repo.stateDir, env: repo.env, cleanup: repo.cleanup };
}

/** Every capsule document on the memory branch of `dir`, parsed. */
export function branchDocs(dir: string): CapsuleDocument[] {
  return git(dir, 'ls-tree', '-r', '--name-only', 'refs/heads/capsules')
    .split('\n')
    .filter((p) => p.endsWith('/capsule.md'))
    .map((p) => parseCapsule(git(dir, 'show', `refs/heads/capsules:${p}`)).doc!);
}

/** Runs git in `dir` (no system or global config) and returns its trimmed stdout. */
export function git(dir: string, ...args: string[]): string {
  return runGit(dir, args);
}

/** A temp dir that is not inside any repository. */
export function makeTempDir(): { dir: string; cleanup: () => void } {
  const dir = tempDir('capsule-nogit-');
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

/** A compaction summary that ends with the state block PreCompact asks for. */
export const STATE_SUMMARY = '<summary>\nThe widget was written.\n\n<capsule-state>\nobjective: Ship the widget parser\nwaiting_on: nothing\nnext_valid_action: Run the widget tests and fix the first failure\ndone: src/widget.ts written; its test drafted\ndecisions: the parser stays synchronous\n</capsule-state>\n</summary>';

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
    PostCompact: { trigger: 'manual', compact_summary: STATE_SUMMARY },
    UserPromptSubmit: { prompt: 'hello' },
    SessionEnd: { reason: 'other' },
  };
  return { ...base, ...extra[event], ...overrides };
}

/** Transcript records of one turn the way Claude Code 2.1.332 writes them (harness README §7). */
export function turnRecords(opts: { cwd: string; n: number; prompt?: string; write?: string; failing?: string; passing?: string; sessionId?: string }): string {
  const t = '2026-11-29T21:00:00.000Z';
  const base = { isSidechain: false, cwd: opts.cwd, sessionId: opts.sessionId ?? 'be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1', timestamp: t, gitBranch: 'main' };
  const records: unknown[] = [{ ...base, type: 'user', uuid: `u${opts.n}`, message: { role: 'user', content: opts.prompt ?? `request ${opts.n}` } }];
  if (opts.write) {
    records.push({ ...base, type: 'assistant', uuid: `w${opts.n}`, message: { id: `m${opts.n}`, role: 'assistant', content: [{ type: 'tool_use', id: `tw${opts.n}`, name: 'Write', input: { file_path: opts.write, content: 'x\n' } }] } });
    records.push({ ...base, type: 'user', uuid: `wr${opts.n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tw${opts.n}`, content: `File created successfully at: ${opts.write}` }] } });
  }
  if (opts.failing) {
    records.push({ ...base, type: 'assistant', uuid: `b${opts.n}`, message: { id: `mb${opts.n}`, role: 'assistant', content: [{ type: 'tool_use', id: `tb${opts.n}`, name: 'Bash', input: { command: opts.failing, description: 'run' } }] } });
    records.push({ ...base, type: 'user', uuid: `br${opts.n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tb${opts.n}`, content: 'Exit code 3\nwidget test failed', is_error: true } ] } });
  }
  if (opts.passing) {
    records.push({ ...base, type: 'assistant', uuid: `p${opts.n}`, message: { id: `mp${opts.n}`, role: 'assistant', content: [{ type: 'tool_use', id: `tp${opts.n}`, name: 'Bash', input: { command: opts.passing, description: 'run' } }] } });
    records.push({ ...base, type: 'user', uuid: `pr${opts.n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tp${opts.n}`, content: 'all tests passed' }] } });
  }
  records.push({ ...base, type: 'assistant', uuid: `d${opts.n}`, message: { id: `md${opts.n}`, role: 'assistant', content: [{ type: 'text', text: `done ${opts.n}` }] } });
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

/** Runs a hook handler in `repo`, at `now`, with its event's payload: `cwd` set to the repo, `fields` over it. */
export function runHookIn<E extends HookEventName>(repo: TempRepo, spec: HookSpec<E>, fields: Record<string, unknown>, now: Date) {
  return runHook(spec, {
    readStdin: async () => JSON.stringify(payload(spec.event, { cwd: repo.dir, ...fields })),
    env: repo.env,
    now: () => now,
    cwd: repo.dir,
  });
}
