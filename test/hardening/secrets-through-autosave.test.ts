import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDeps } from '../../lib/hooks/default-deps';
import { runHook, type HookSpec } from '../../lib/hooks/run-hook';
import type { HookEventName } from '../../lib/hosts/host';
import { makePostCompactHook } from '../../lib/hooks/post-compact';
import { makePreCompactHook } from '../../lib/hooks/pre-compact';
import { makeStopHook } from '../../lib/hooks/stop';
import { generateEnvFile, generateSecrets, secretCore, type PlantedSecret } from '../redact/secret-corpus';
import { makeTestRepo, type TestRepo } from '../resume-runtime/repo';
import { TranscriptBuilder } from '../hosts/claude/transcript-builder';

// Item 1 end to end: secrets planted in a real-shaped transcript (user prompts, tool inputs,
// tool outputs, file contents) go through the Stop hook's autosave, with the hooks' real
// dependencies, into the memory branch; afterwards no object the branch reaches, and no line
// of `git log -p`, holds any of them.
function everyObject(repo: TestRepo): string {
  const ids = repo.git(['rev-list', '--objects', 'capsules']).split('\n').map((l) => l.split(' ')[0]).filter(Boolean);
  return execFileSync('git', ['cat-file', '--batch'], { cwd: repo.dir, env: repo.env, input: `${ids.join('\n')}\n`, maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
}

/** One turn of a session with `s` planted where the session meets it (cycling through the four places). */
function plantTurn(t: TranscriptBuilder, s: PlantedSecret, i: number): void {
  const id = `toolu_${i}`;
  switch (i % 5) {
    case 0:
      t.user(`Deploy it. ${s.context}`);
      break;
    case 1:
      t.toolUse(id, 'Bash', { command: s.context, description: 'run it' });
      t.toolResult(id, `error: authentication failed for ${s.context}`, true);
      break;
    case 2:
      t.toolUse(id, 'Bash', { command: 'cat config/settings.yml', description: 'read config' });
      t.toolResult(id, `settings:\n  ${s.context}\n`);
      break;
    case 3:
      t.toolUse(id, 'Read', { file_path: `/proj/config/app-${i}.cfg` });
      t.toolResult(id, `     1\t[app]\n     2\t${s.context}\n`);
      break;
    default:
      t.toolUse(id, 'Write', { file_path: `/proj/deploy-${i}.sh`, content: `#!/bin/sh\n${s.context}\n` });
      t.toolResult(id, `File created successfully at: /proj/deploy-${i}.sh`);
      t.assistant(`Wrote the deploy script; it uses ${s.context}.`);
  }
}

describe('secrets planted in a transcript never reach the memory branch through the autosave', () => {
  jest.setTimeout(120_000);

  it('leaves none in any object of the branch nor in git log -p', async () => {
    const repo = makeTestRepo();
    const root = mkdtempSync(join(tmpdir(), 'capsule-autosave-secrets-'));
    try {
      const transcriptPath = join(root, 'session.jsonl');
      const secrets = generateSecrets(77);
      const env = generateEnvFile(78);
      const t = new TranscriptBuilder('session-secrets', repo.dir);
      const stop = makeStopHook(defaultDeps);
      writeFileSync(transcriptPath, '');
      let written = 0;
      // Several Stop turns, each appending part of the session.
      for (let turn = 0; turn * 8 < secrets.length; turn++) {
        const before = t.rows.length;
        secrets.slice(turn * 8, turn * 8 + 8).forEach((s, i) => plantTurn(t, s, turn * 8 + i));
        if (turn === 0) {
          t.toolUse('toolu_env', 'Read', { file_path: `${repo.dir}/.env` });
          t.toolResult('toolu_env', env.text.split('\n').map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join('\n'));
        }
        appendFileSync(transcriptPath, t.rows.slice(before).map((r) => JSON.stringify(r)).join('\n') + '\n');
        const input = JSON.stringify({ session_id: 'session-secrets', transcript_path: transcriptPath, cwd: repo.dir, hook_event_name: 'Stop', last_assistant_message: secrets[turn]?.context ?? 'ok' });
        const out = await runHook(stop, { readStdin: async () => input, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, now: () => new Date(Date.UTC(2026, 10, 29, 20, turn)), cwd: repo.dir });
        expect(out.failCode).toBeUndefined();
        written++;
      }
      expect(written).toBeGreaterThan(3);
      const objects = everyObject(repo);
      const log = repo.git(['log', '-p', '--format=%H%n%B', 'capsules']);
      expect(objects).toContain('[REDACTED:');
      const leaked = secrets.filter((s) => [s.value, secretCore(s.value)].some((v) => objects.includes(v) || log.includes(v)));
      expect(leaked.map((s) => `${s.kind}: ${s.context}`)).toEqual([]);
      expect(env.secrets.filter((v) => objects.includes(v) || log.includes(v))).toEqual([]);
    } finally {
      repo.cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('leaves none through the Codex rollout either: prompts, commands, their output, patched files', async () => {
    const repo = makeTestRepo();
    const root = mkdtempSync(join(tmpdir(), 'capsule-autosave-secrets-codex-'));
    try {
      const session = '01a230d4-782a-72d0-ba84-41438a9184ed';
      const rollout = join(root, `rollout-2026-12-01T08-59-20-${session}.jsonl`);
      const secrets = generateSecrets(91);
      const line = (type: string, payload: Record<string, unknown>) => `${JSON.stringify({ timestamp: '2026-12-01T08:59:20.000Z', type, payload })}\n`;
      const item = (it: Record<string, unknown>) => line('event_msg', { type: 'item_completed', item: it });
      writeFileSync(rollout, line('turn_context', { turn_id: 't', cwd: repo.dir }));
      const stop = makeStopHook(defaultDeps);
      for (let turn = 0; turn * 6 < secrets.length; turn++) {
        let text = '';
        secrets.slice(turn * 6, turn * 6 + 6).forEach((sec, i) => {
          const id = `call_${turn}_${i}`;
          text += item({ type: 'UserMessage', id: `u${id}`, content: [{ type: 'text', text: `Deploy it. ${sec.context}` }] });
          text += line('response_item', { type: 'function_call', name: 'exec_command', call_id: id, arguments: JSON.stringify({ cmd: `${sec.context} > out-${i}.txt` }) });
          text += item({ type: 'CommandExecution', id, command: ['/bin/bash', '-lc', sec.context], status: 'failed', aggregated_output: `error: authentication failed for ${sec.context}`, exit_code: 1 });
          const patch = `p${id}`;
          text += line('response_item', { type: 'custom_tool_call', name: 'apply_patch', call_id: patch, input: `*** Begin Patch\n*** Add File: deploy-${i}.sh\n+${sec.context}\n*** End Patch\n` });
          text += item({ type: 'FileChange', id: patch, changes: { [`${repo.dir}/deploy-${i}.sh`]: { type: 'add', content: sec.context } }, status: 'completed' });
        });
        appendFileSync(rollout, text);
        const input = JSON.stringify({ session_id: session, transcript_path: rollout, cwd: repo.dir, hook_event_name: 'Stop', model: 'gpt-5.5', turn_id: `t${turn}`, permission_mode: 'bypassPermissions', stop_hook_active: false, last_assistant_message: secrets[turn]?.context ?? 'ok' });
        const out = await runHook(stop, { readStdin: async () => input, env: repo.env, now: () => new Date(Date.UTC(2026, 11, 1, 9, turn)), cwd: repo.dir, argv: ['--host', 'codex'] });
        expect(out.failCode).toBeUndefined();
      }
      const objects = everyObject(repo);
      const log = repo.git(['log', '-p', '--format=%H%n%B', 'capsules']);
      expect(objects).toContain('[REDACTED:');
      expect(objects).toContain('authentication failed');
      const leaked = secrets.filter((sec) => [sec.value, secretCore(sec.value)].some((v) => objects.includes(v) || log.includes(v)));
      expect(leaked.map((sec) => `${sec.kind}: ${sec.context}`)).toEqual([]);
    } finally {
      repo.cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('still autosaves a session whose first prompt is nothing but a secret, and the secret is not in it', async () => {
    const repo = makeTestRepo();
    const root = mkdtempSync(join(tmpdir(), 'capsule-autosave-secret-prompt-'));
    try {
      const key = (generateSecrets(5).find((s) => s.kind === 'anthropic-key') as PlantedSecret).value;
      const t = new TranscriptBuilder('session-key', repo.dir);
      t.user(key);
      t.toolUse('toolu_1', 'Bash', { command: 'npm test', description: 'run the tests' });
      t.toolResult('toolu_1', 'Tests: 3 passed');
      const transcriptPath = join(root, 'session.jsonl');
      writeFileSync(transcriptPath, t.text());
      const input = JSON.stringify({ session_id: 'session-key', transcript_path: transcriptPath, cwd: repo.dir, hook_event_name: 'Stop' });
      const out = await runHook(makeStopHook(defaultDeps), { readStdin: async () => input, env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, now: () => new Date('2026-11-29T20:00:00Z'), cwd: repo.dir });
      expect(out.failCode).toBeUndefined();
      const objects = everyObject(repo);
      // A bare secret is no task, so it never becomes the objective; the autosave still holds the turn.
      expect(objects).toContain('`npm test` passed');
      expect(objects).not.toContain(secretCore(key));
    } finally {
      repo.cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("keeps a valid capsule, redacted, when the summariser's state block makes a bare secret the objective", async () => {
    const repo = makeTestRepo();
    const root = mkdtempSync(join(tmpdir(), 'capsule-autosave-secret-summary-'));
    try {
      const key = (generateSecrets(5).find((s) => s.kind === 'anthropic-key') as PlantedSecret).value;
      const t = new TranscriptBuilder('session-key', repo.dir);
      t.user('Rotate the API keys of the billing service.');
      t.toolUse('toolu_1', 'Bash', { command: 'npm test', description: 'run the tests' });
      t.toolResult('toolu_1', 'Tests: 3 passed');
      const transcriptPath = join(root, 'session.jsonl');
      writeFileSync(transcriptPath, t.text());
      const run = <E extends HookEventName>(spec: HookSpec<E>, fields: Record<string, unknown>) =>
        runHook(spec, { readStdin: async () => JSON.stringify({ session_id: 'session-key', transcript_path: transcriptPath, cwd: repo.dir, ...fields }), env: { ...repo.env, CLAUDE_PROJECT_DIR: repo.dir }, now: () => new Date('2026-11-29T20:00:00Z'), cwd: repo.dir });
      expect((await run(makePreCompactHook(defaultDeps), { hook_event_name: 'PreCompact', trigger: 'auto' })).failCode).toBeUndefined();
      const out = await run(makePostCompactHook(defaultDeps), { hook_event_name: 'PostCompact', trigger: 'auto', compact_summary: `<capsule-state>\nobjective: ${key}\n</capsule-state>` });
      expect(out.failCode).toBeUndefined();
      const objects = everyObject(repo);
      expect(objects).toContain('objective: "[REDACTED:anthropic-key]"');
      expect(objects).not.toContain(secretCore(key));
    } finally {
      repo.cleanup();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
