/** How the supervisor reads the user's input lines. */
export type InputFormat = 'auto' | 'text';

/** One input line, classified. */
export type InputLine =
  /** A user message, as the stream-json line to send when the client is idle. */
  | { kind: 'message'; line: string }
  /** Any other protocol line (control requests and responses): it passes at once, even mid-turn. */
  | { kind: 'control'; line: string }
  /** A blank line: not a message. */
  | { kind: 'blank' };

/**
 * Classifies one line of the user's input. In `auto`, a line that is a JSON object with a
 * string `type` is a stream-json line: `type: "user"` is a message (held until the client is
 * idle), anything else passes through at once (a `control_response` answering a permission
 * request cannot wait for the turn to end). Every other line is plain text and becomes a user
 * message. In `text`, every non-blank line is plain text.
 *
 * @example
 * classifyInputLine('fix the test', 'auto') // { kind: 'message', line: '{"type":"user","message":{"role":"user","content":"fix the test"}}' }
 */
export function classifyInputLine(raw: string, format: InputFormat): InputLine {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return { kind: 'blank' };
  if (format === 'auto' && line.trimStart().startsWith('{')) {
    const type = protocolType(line);
    if (type === 'user') return { kind: 'message', line: line.trim() };
    if (type !== null) return { kind: 'control', line: line.trim() };
  }
  return { kind: 'message', line: userMessageLine(line) };
}

/** The stream-json line of a plain-text user message (also how the supervisor sends `/clear`). */
export function userMessageLine(text: string): string {
  return JSON.stringify({ type: 'user', message: { role: 'user', content: text } });
}

function protocolType(line: string): string | null {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const type = (value as { type?: unknown }).type;
    return typeof type === 'string' && type !== '' ? type : null;
  } catch {
    return null;
  }
}
