import { recordFill } from '../budget/context-fill';
import { isBudgetBlockReason } from '../budget/budget-message';

/** What one line of the client's stream-json output tells the supervisor. */
export type StreamSignal =
  /** The session the event belongs to (a /clear or a compaction starts a new one). */
  | { kind: 'session'; id: string }
  /** The client is working on a turn (an assistant or user event). */
  | { kind: 'activity' }
  /** The main conversation's context fill, from an assistant event's usage (the budget's own reader). */
  | { kind: 'fill'; tokens: number; model: string | null }
  /** The Stop hook's budget block reached the agent: the hook asked for the capsule. */
  | { kind: 'budget-block' }
  /** Text the main agent wrote. */
  | { kind: 'assistant-text'; text: string }
  /** A turn ended; `localCommand` names a slash command the client ran itself (`clear`). */
  | { kind: 'result'; localCommand: string | null; queued: number }
  /** The conversation was compacted: a new context window. */
  | { kind: 'compacted' };

type Rec = Record<string, unknown>;

/**
 * Reads one line of `--output-format stream-json`. Unknown events, lines that are not JSON and
 * fields of the wrong type give no signal: the line is still relayed, the supervisor just learns
 * nothing from it. Subagent events (`parent_tool_use_id` set) never count as the main agent's.
 *
 * @example
 * readStreamLine('{"type":"result","subtype":"success","session_id":"s1"}') // [{ kind: 'session', id: 's1' }, { kind: 'result', … }]
 */
export function readStreamLine(line: string): StreamSignal[] {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return [];
  }
  if (!isRecord(event) || typeof event.type !== 'string') return [];
  const signals: StreamSignal[] = [];
  if (typeof event.session_id === 'string' && event.session_id !== '') signals.push({ kind: 'session', id: event.session_id });
  const main = event.parent_tool_use_id === undefined || event.parent_tool_use_id === null;
  switch (event.type) {
    case 'assistant': {
      signals.push({ kind: 'activity' });
      if (!main) break;
      const fill = recordFill(event);
      if (fill) signals.push({ kind: 'fill', tokens: fill.tokens, model: fill.model });
      const text = blockText(event.message);
      if (text !== '') signals.push({ kind: 'assistant-text', text });
      break;
    }
    case 'user': {
      signals.push({ kind: 'activity' });
      if (main && isBudgetBlockReason(blockText(event.message))) signals.push({ kind: 'budget-block' });
      break;
    }
    case 'stream_event':
      signals.push({ kind: 'activity' });
      break;
    case 'result':
      signals.push({
        kind: 'result',
        localCommand: typeof event.local_command === 'string' ? event.local_command : null,
        queued: typeof event.queued_turn_count === 'number' && Number.isSafeInteger(event.queued_turn_count) && event.queued_turn_count > 0 ? event.queued_turn_count : 0,
      });
      break;
    case 'system':
      if (event.subtype === 'compact_boundary') signals.push({ kind: 'compacted' });
      break;
    default:
      break;
  }
  return signals;
}

function blockText(message: unknown): string {
  if (!isRecord(message)) return '';
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Rec => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
