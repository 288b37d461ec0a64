/**
 * The core's typed hook inputs: what a handler reads, whichever host sent the payload. The
 * field names are the ones both hosts' payloads happen to share (Claude Code's hook contract,
 * which the Codex CLI copied); a host adapter checks its own payload and hands over this shape,
 * adding nothing the core would have to know about.
 */

/** The fields every handler may read. */
export interface CommonHookInput {
  session_id?: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: string;
}

/** SessionStart: `source` is startup, resume, clear or compact (Codex also has fork). */
export interface SessionStartInput extends Omit<CommonHookInput, 'session_id'> {
  /** Unchecked: the resume runtime judges a non-string id itself (never coerced). */
  session_id?: unknown;
  source: string;
  /** The model the host names, when it does (Claude's compact payloads, every Codex payload). */
  model?: string;
}

/** Stop: `last_assistant_message` is the freshest text, since the transcript file can lag. */
export interface StopInput extends CommonHookInput {
  last_assistant_message?: string | null;
  stop_hook_active?: boolean;
  /** The jobs still running (Claude Code: `[{ id, type, status, description, command }]`); checked entry by entry where read. */
  background_tasks?: unknown;
}

/** PreCompact: `trigger` is manual or auto; `custom_instructions` the /compact arguments or null. */
export interface PreCompactInput extends CommonHookInput {
  trigger: string;
  custom_instructions?: string | null;
}

/** PostCompact: `compact_summary` is the summariser's raw text (Claude Code; Codex gives none). */
export interface PostCompactInput extends CommonHookInput {
  trigger: string;
  compact_summary?: string | null;
}

/** UserPromptSubmit: the prompt as typed. */
export interface UserPromptSubmitInput extends CommonHookInput {
  prompt: string;
}

/** SessionEnd: `reason` is clear, other, logout, … (always other on Codex). */
export interface SessionEndInput extends CommonHookInput {
  reason?: string;
}

/** The input type of each event the core handles. */
export interface HookInputs {
  SessionStart: SessionStartInput;
  Stop: StopInput;
  PreCompact: PreCompactInput;
  PostCompact: PostCompactInput;
  UserPromptSubmit: UserPromptSubmitInput;
  SessionEnd: SessionEndInput;
}

/** The result of checking a payload: the typed input, or the first field that was wrong. */
export type HookInputCheck<E extends keyof HookInputs> =
  | { ok: true; input: HookInputs[E] }
  | { ok: false; field: string; expected: string; received: string };
