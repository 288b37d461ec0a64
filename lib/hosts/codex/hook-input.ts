import type { HookEventName } from '../host';
import type { HookInputCheck, HookInputs } from '../hook-inputs';
import { checkPayloadFields, type FieldKind } from '../payload-fields';

// Every Codex input schema requires session_id and transcript_path (null for a session with no rollout).
const COMMON: Record<string, FieldKind> = {
  session_id: 'string',
  transcript_path: 'string|null?',
  cwd: 'string',
  hook_event_name: 'string',
  model: 'string?',
};

const EXTRA: { [E in HookEventName]: Record<string, FieldKind> } = {
  SessionStart: { source: 'string' },
  Stop: { last_assistant_message: 'string|null?', stop_hook_active: 'boolean?' },
  PreCompact: { trigger: 'string' },
  // Checked for completeness: Codex's PostCompact carries no summary, so git-capsule registers none.
  PostCompact: { trigger: 'string' },
  UserPromptSubmit: { prompt: 'string' },
  SessionEnd: { reason: 'string?' },
};

/** The fields the core reads from each event, copied over; nothing else of the payload goes on. */
const KEPT: { [E in HookEventName]: readonly string[] } = {
  SessionStart: ['source', 'model'],
  Stop: ['last_assistant_message', 'stop_hook_active'],
  PreCompact: ['trigger'],
  PostCompact: ['trigger'],
  UserPromptSubmit: ['prompt'],
  SessionEnd: ['reason'],
};

/**
 * Checks a Codex CLI 0.169.0 payload (codex-harness `schemas/*.input.json`) by type and hands
 * over the core's input: `transcript_path: null` becomes absent, and only the fields the core
 * reads are copied (Codex adds `turn_id`, `permission_mode`, `agent_id` …).
 */
export function checkCodexInput<E extends HookEventName>(event: E, raw: unknown): HookInputCheck<E> {
  const mismatch = checkPayloadFields(raw, { ...COMMON, ...EXTRA[event] });
  if (mismatch !== null) return { ok: false, ...mismatch };
  const p = raw as Record<string, unknown>;
  if (p.session_id === '') return { ok: false, field: 'session_id', expected: 'a non-empty string', received: 'an empty string' };
  const input: Record<string, unknown> = { session_id: p.session_id, cwd: p.cwd, hook_event_name: p.hook_event_name };
  if (typeof p.transcript_path === 'string' && p.transcript_path !== '') input.transcript_path = p.transcript_path;
  for (const field of KEPT[event]) if (p[field] !== undefined && p[field] !== null) input[field] = p[field];
  if (event === 'Stop' && p.last_assistant_message === null) input.last_assistant_message = null;
  return { ok: true, input: input as unknown as HookInputs[E] };
}

/**
 * Why a payload is none of git-capsule's business, or null: a sub-agent's prompt or
 * compaction carries its parent's session id and rollout (`agent_id` set), and must not warn
 * or checkpoint the parent.
 */
export function codexIgnores(raw: unknown): string | null {
  const p = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return typeof p.agent_id === 'string' && p.agent_id !== '' ? `a sub-agent's ${String(p.hook_event_name)} (agent ${p.agent_id})` : null;
}
