import type { ContextFill } from '../../budget/context-fill';
import { readTranscriptTail } from '../transcript-tail';
import type { RolloutPayload, TokenUsage } from './rollout-records';

/** The fill a rollout's newest `token_count` reports, and the window Codex assumes for the model. */
export interface CodexFill {
  fill: ContextFill;
  /** `info.model_context_window` (gpt-5.5: 258,400), or null when the event names none. */
  window: number | null;
}

/** The fill of a rollout file, or why there is none. */
export type CodexFillRead = { ok: true; found: CodexFill | null; bytesRead: number; fileBytes: number } | { ok: false; code: 'TRANSCRIPT_UNREADABLE'; message: string };

/**
 * What one rollout line says about the fill: an `event_msg` `token_count` gives the tokens in
 * the context window as Codex counts them for its own auto-compaction (the last request's
 * `total_tokens` minus its reasoning tokens; measured: 244,810 input tokens compact at a
 * 244,800 limit, 244,700 do not); a `compacted` record makes the fill before it stale.
 * Undefined for any other line.
 */
export function recordCodexFill(rec: Record<string, unknown>): CodexFill | null | undefined {
  if (rec.type === 'compacted') return null;
  if (rec.type !== 'event_msg') return undefined;
  const payload = rec.payload as RolloutPayload | undefined;
  if (payload?.type !== 'token_count' || typeof payload.info !== 'object' || payload.info === null) return undefined;
  const tokens = contextTokens(payload.info.last_token_usage);
  if (tokens === null) return undefined;
  const window = payload.info.model_context_window;
  return { fill: { tokens, model: null, source: 'token_count', uuid: null }, window: typeof window === 'number' && window > 0 ? window : null };
}

/** The context fill at the end of a rollout file, read from its tail (lib/hosts/transcript-tail.ts). Never throws. */
export function readRolloutFill(path: string): CodexFillRead {
  return readTranscriptTail(path, recordCodexFill);
}

function contextTokens(usage: TokenUsage | undefined): number | null {
  if (typeof usage !== 'object' || usage === null) return null;
  const total = whole(usage.total_tokens) ?? (whole(usage.input_tokens) === null ? null : whole(usage.input_tokens)! + (whole(usage.output_tokens) ?? 0));
  return total === null ? null : Math.max(0, total - (whole(usage.reasoning_output_tokens) ?? 0));
}

function whole(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}
