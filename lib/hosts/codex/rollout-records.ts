import type { TranscriptRecord } from '../../transcript/records';

/**
 * The parts of a Codex CLI 0.169.0 rollout line (`{timestamp, ordinal, type, payload}`,
 * as Codex 0.169.0 writes them) the readers use; every field optional, since the file is another
 * program's output.
 */
export interface RolloutPayload {
  type?: string;
  role?: string;
  content?: Array<{ type?: string; text?: string }>;
  name?: string;
  namespace?: string;
  arguments?: string;
  input?: string;
  call_id?: string;
  output?: unknown;
  cwd?: string;
  item?: RolloutItem;
  info?: { last_token_usage?: TokenUsage; total_token_usage?: TokenUsage; model_context_window?: number } | null;
  model?: string;
  [key: string]: unknown;
}

/** An `event_msg` `item_completed` item: CommandExecution, FileChange, UserMessage, AgentMessage, … */
export interface RolloutItem {
  type?: string;
  id?: string;
  command?: unknown;
  cwd?: string;
  parsed_cmd?: Array<{ type?: string; path?: string; name?: string; cmd?: string }>;
  status?: string;
  aggregated_output?: string;
  exit_code?: number | null;
  changes?: Record<string, { type?: string; move_path?: string | null }>;
  stdout?: string;
  stderr?: string;
  content?: Array<{ type?: string; text?: string }>;
  [key: string]: unknown;
}

/** Token counts as Codex reports them (`token_count`, `token_usage_record`, PostModelRequest). */
export interface TokenUsage {
  input_tokens?: number;
  cached_input_tokens?: number;
  output_tokens?: number;
  reasoning_output_tokens?: number;
  total_tokens?: number;
}

/** A rollout line's type and payload, or null for a line of another shape. */
export function rolloutLine(record: TranscriptRecord): { type: string; payload: RolloutPayload; timestamp?: string } | null {
  const d = record.data as { type?: unknown; payload?: unknown; timestamp?: unknown };
  if (typeof d.type !== 'string' || typeof d.payload !== 'object' || d.payload === null) return null;
  return { type: d.type, payload: d.payload as RolloutPayload, timestamp: typeof d.timestamp === 'string' ? d.timestamp : undefined };
}

/** The text blocks of a message or item, joined. */
export function contentText(content: RolloutPayload['content']): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((b) => b && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

/** A `file://` URL as Codex writes a command's cwd, as a path; other strings unchanged. */
export function pathOfCwd(cwd: unknown): string | undefined {
  if (typeof cwd !== 'string' || cwd === '') return undefined;
  if (!cwd.startsWith('file://')) return cwd;
  try {
    return decodeURIComponent(cwd.slice('file://'.length));
  } catch {
    return cwd.slice('file://'.length);
  }
}
