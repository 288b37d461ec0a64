import type { HookEventName } from './hook-events';

/** The fields every Claude Code hook payload carries (README of the harness, §4). */
export interface CommonHookInput {
  session_id?: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: string;
}

/** SessionStart: `source` is startup, resume, clear or compact. */
export interface SessionStartInput extends Omit<CommonHookInput, 'session_id'> {
  /** Unchecked here: see EXTRA below. */
  session_id?: unknown;
  source: string;
}

/** Stop: `last_assistant_message` is the freshest text, since the transcript file can lag. */
export interface StopInput extends CommonHookInput {
  last_assistant_message?: string | null;
  stop_hook_active?: boolean;
  /** The jobs still running (`[{ id, type, status, description, command }]`); checked entry by entry where read. */
  background_tasks?: unknown;
}

/** PreCompact: `trigger` is manual or auto; `custom_instructions` the /compact arguments or null. */
export interface PreCompactInput extends CommonHookInput {
  trigger: string;
  custom_instructions?: string | null;
}

/** PostCompact: `compact_summary` is the summariser's raw text, `<summary>` tags included. */
export interface PostCompactInput extends CommonHookInput {
  trigger: string;
  compact_summary?: string | null;
}

/** UserPromptSubmit: the prompt as typed. */
export interface UserPromptSubmitInput extends CommonHookInput {
  prompt: string;
}

/** SessionEnd: `reason` is clear, other, logout, … */
export interface SessionEndInput extends CommonHookInput {
  reason?: string;
}

/** The payload type of each event. */
export interface HookInputs {
  SessionStart: SessionStartInput;
  Stop: StopInput;
  PreCompact: PreCompactInput;
  PostCompact: PostCompactInput;
  UserPromptSubmit: UserPromptSubmitInput;
  SessionEnd: SessionEndInput;
}

type FieldKind = 'string' | 'string?' | 'string|null?' | 'boolean?' | 'any';

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

/** The result of checking a payload: the typed input, or the first field that was wrong. */
export type HookInputCheck<E extends HookEventName> =
  | { ok: true; input: HookInputs[E] }
  | { ok: false; field: string; expected: string; received: string };

/**
 * Checks the fields a handler uses, by type only: a value of the wrong type is never coerced
 * (a non-string session id must not become "[object Object]"). Unknown fields are ignored.
 */
export function checkHookInput<E extends HookEventName>(event: E, raw: unknown): HookInputCheck<E> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, field: '(payload)', expected: 'a JSON object', received: describe(raw) };
  }
  const record = raw as Record<string, unknown>;
  for (const [field, kind] of Object.entries({ ...COMMON, ...EXTRA[event] })) {
    if (!fits(record[field], kind)) return { ok: false, field, expected: kind, received: describe(record[field]) };
  }
  if (record.session_id === '' && EXTRA[event].session_id !== 'any') return { ok: false, field: 'session_id', expected: 'a non-empty string', received: 'an empty string' };
  return { ok: true, input: record as unknown as HookInputs[E] };
}

function fits(value: unknown, kind: FieldKind): boolean {
  if (kind === 'any') return true;
  if (value === undefined) return kind.endsWith('?');
  if (value === null) return kind.includes('null');
  return typeof value === kind.replace(/\|null|\?/g, '');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
