import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookEventName } from '../host';
import type { HookInputCheck, HookInputs } from '../hook-inputs';
import { checkPayloadFields, type FieldKind } from '../payload-fields';

// Every payload of Copilot CLI 1.0.102 (test/fixtures/copilot/payloads) has these, camelCase.
const COMMON: Record<string, FieldKind> = {
  sessionId: 'string',
  cwd: 'string',
};

const EXTRA: { [E in HookEventName]: Record<string, FieldKind> } = {
  SessionStart: { source: 'string', initialPrompt: 'string?' },
  Stop: { transcriptPath: 'string?', stopReason: 'string?', stop_hook_active: 'boolean?', stopHookActive: 'boolean?' },
  PreCompact: { transcriptPath: 'string?', trigger: 'string', customInstructions: 'string|null?' },
  // Never registered: Copilot runs nothing after a compaction.
  PostCompact: { trigger: 'string' },
  UserPromptSubmit: { prompt: 'string' },
  SessionEnd: { reason: 'string?' },
};

/**
 * Checks a GitHub Copilot CLI payload by type and hands over the core's input, in the core's
 * field names: `sessionId` → session_id, `transcriptPath` → transcript_path (given only at
 * agentStop and preCompact; elsewhere the session's `events.jsonl` under the Copilot home, when
 * it is there), `customInstructions` → custom_instructions. Two values are translated:
 * sessionEnd's `user_exit` becomes `clear`, since Copilot gives that one reason both at `/clear`
 * (`/new`) and at exit, and a hand-over left at exit is never taken (no session of that client
 * process follows; it is pruned with the process); and agentStop's flag, named `stop_hook_active`
 * in what the client sends (`stopHookActive` in its SDK), is read under either name.
 */
export function checkCopilotInput<E extends HookEventName>(event: E, raw: unknown, env: NodeJS.ProcessEnv = process.env): HookInputCheck<E> {
  const mismatch = checkPayloadFields(raw, { ...COMMON, ...EXTRA[event] });
  if (mismatch !== null) return { ok: false, ...mismatch };
  const p = raw as Record<string, unknown>;
  if (p.sessionId === '') return { ok: false, field: 'sessionId', expected: 'a non-empty string', received: 'an empty string' };
  const sessionId = p.sessionId as string;
  const input: Record<string, unknown> = { session_id: sessionId, cwd: p.cwd, hook_event_name: event };
  const transcript = typeof p.transcriptPath === 'string' && p.transcriptPath !== '' ? p.transcriptPath : sessionTranscript(sessionId, env);
  if (transcript !== null) input.transcript_path = transcript;
  if (event === 'SessionStart') input.source = p.source;
  if (event === 'UserPromptSubmit') input.prompt = p.prompt;
  if (event === 'PreCompact') {
    input.trigger = p.trigger;
    if (typeof p.customInstructions === 'string' && p.customInstructions !== '') input.custom_instructions = p.customInstructions;
  }
  if (event === 'Stop') {
    const active = p.stop_hook_active ?? p.stopHookActive;
    if (typeof active === 'boolean') input.stop_hook_active = active;
  }
  if (event === 'SessionEnd' && typeof p.reason === 'string') input.reason = p.reason === 'user_exit' ? 'clear' : p.reason;
  return { ok: true, input: input as unknown as HookInputs[E] };
}

/**
 * The session's transcript where Copilot keeps it (`$COPILOT_HOME`, else `~/.copilot`:
 * `session-state/<id>/events.jsonl`), or null when no such file is there (another
 * `--config-dir`, or an id that is no plain name).
 */
export function sessionTranscript(sessionId: string, env: NodeJS.ProcessEnv): string | null {
  if (!/^[A-Za-z0-9_.-]+$/.test(sessionId) || sessionId.startsWith('.')) return null;
  const home = env.COPILOT_HOME || join(env.HOME || homedir(), '.copilot');
  const path = join(home, 'session-state', sessionId, 'events.jsonl');
  return existsSync(path) ? path : null;
}
