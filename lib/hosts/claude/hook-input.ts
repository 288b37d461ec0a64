import type { HookEventName } from '../host';
import type { HookInputCheck, HookInputs } from '../hook-inputs';
import { checkPayloadFields, type FieldKind } from '../payload-fields';

const COMMON: Record<string, FieldKind> = {
  session_id: 'string?',
  transcript_path: 'string?',
  cwd: 'string',
  hook_event_name: 'string',
};

const EXTRA: { [E in HookEventName]: Record<string, FieldKind> } = {
  // The resume runtime judges the session id itself (a non-string is invalid, named in the text, never coerced).
  SessionStart: { source: 'string', session_id: 'any' },
  Stop: { last_assistant_message: 'string|null?', stop_hook_active: 'boolean?', background_tasks: 'any' },
  PreCompact: { trigger: 'string', custom_instructions: 'string|null?' },
  PostCompact: { trigger: 'string', compact_summary: 'string|null?' },
  UserPromptSubmit: { prompt: 'string' },
  SessionEnd: { reason: 'string?' },
};

/**
 * Checks the fields of a Claude Code payload (as Claude Code 2.1.332 sends it) that a handler uses, by
 * type only; unknown fields are ignored. The payload already has the core's shape.
 */
export function checkHookInput<E extends HookEventName>(event: E, raw: unknown): HookInputCheck<E> {
  const mismatch = checkPayloadFields(raw, { ...COMMON, ...EXTRA[event] });
  if (mismatch !== null) return { ok: false, ...mismatch };
  const record = raw as Record<string, unknown>;
  if (record.session_id === '' && EXTRA[event].session_id !== 'any') return { ok: false, field: 'session_id', expected: 'a non-empty string', received: 'an empty string' };
  return { ok: true, input: record as unknown as HookInputs[E] };
}
