import type { RawTranscriptRecord } from './records';

/**
 * The longest transcript line parsed as JSON. A longer line (a giant tool output, a Write of a
 * huge file, an Edit whose `originalFile` the host keeps) is scanned byte by byte instead and
 * read as a stub record, so one line never costs more than this plus the parse of it.
 */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

// Top-level fields a stub keeps: what threads the record into the message graph and names it.
const TOP_KEYS = new Set(['type', 'subtype', 'uuid', 'parentUuid', 'logicalParentUuid', 'sessionId', 'timestamp', 'isSidechain', 'isMeta', 'isCompactSummary', 'isApiErrorMessage', 'cwd', 'gitBranch', 'requestedModel']);
// Fields of message and message.usage a stub keeps: the context fill is read from them (lib/budget).
const MESSAGE_KEYS = new Set(['id', 'role', 'model']);
const USAGE_KEYS = new Set(['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens']);
// Fields of the first block of message.content a stub keeps: which tool call or result it was.
const BLOCK_KEYS = new Set(['type', 'id', 'name', 'tool_use_id', 'is_error']);
const MAX_KEPT_VALUE = 512;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;

/**
 * Scans one over-long JSONL line fed in byte chunks, holding only its nesting and the few short
 * values a stub needs (never the line): the top-level graph fields, message id, role, model and
 * usage token counts, and the first content block's type, id, name, tool_use_id and is_error.
 * JSON's structural characters are ASCII, so UTF-8 continuation bytes never confuse it.
 */
export class OversizeLineScanner {
  bytes = 0;
  readonly top: Record<string, unknown> = {};
  readonly block: Record<string, unknown> = {};
  readonly message: Record<string, unknown> = {};
  readonly usage: Record<string, unknown> = {};
  private readonly stack: number[] = [];
  private readonly keys: (string | null)[] = [];
  private pendingKey: string | null = null;
  private expectKey = false;
  private inString = false;
  private stringIsKey = false;
  private escape = false;
  private inScalar = false;
  private capture: number[] | null = null;
  private target: Record<string, unknown> | null = null;
  private started = false;
  private closed = false;
  private broken = false;

  /** Feeds the next bytes of the line (no newline). */
  push(bytes: Uint8Array): void {
    this.bytes += bytes.length;
    for (let i = 0; i < bytes.length && !this.broken; i++) this.step(bytes[i]!);
  }

  /** True when the line was one whole JSON object. */
  valid(): boolean {
    if (this.inScalar) this.endScalar();
    return this.closed && !this.broken && !this.inString;
  }

  private step(b: number): void {
    if (this.inString) {
      if (this.escape) this.escape = false;
      else if (b === 0x5c) this.escape = true;
      else if (b === 0x22) return this.endString();
      this.keep(b);
      return;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a) return this.endScalar();
    if (this.closed || (!this.started && b !== OPEN_OBJECT)) {
      this.broken = true;
      return;
    }
    if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      this.started = true;
      this.keys.push(this.stack.at(-1) === OPEN_OBJECT ? this.pendingKey : null);
      this.stack.push(b);
      this.expectKey = b === OPEN_OBJECT;
    } else if (b === 0x7d || b === 0x5d) {
      this.endScalar();
      if (this.stack.pop() !== (b === 0x7d ? OPEN_OBJECT : OPEN_ARRAY)) this.broken = true;
      this.keys.pop();
      if (this.stack.length === 0) this.closed = true;
    } else if (b === 0x2c) {
      this.endScalar();
      this.expectKey = this.stack.at(-1) === OPEN_OBJECT;
    } else if (b === 0x3a) {
      this.endScalar();
    } else if (b === 0x22) {
      this.inString = true;
      this.stringIsKey = this.expectKey && this.stack.at(-1) === OPEN_OBJECT;
      this.startValue(this.stringIsKey);
    } else if (!this.inScalar) {
      this.inScalar = true;
      this.startValue(false);
      this.keep(b);
    } else this.keep(b);
  }

  // Decides at the start of a key or value whether its bytes are kept, and where.
  private startValue(isKey: boolean): void {
    if (isKey) {
      this.target = null;
      this.capture = [];
      return;
    }
    const key = this.pendingKey;
    const depth = this.stack.length;
    const inMessage = this.keys[1] === 'message';
    const inFirstBlock = depth === 4 && this.stack[3] === OPEN_OBJECT && inMessage && this.keys[2] === 'content';
    const inUsage = depth === 3 && this.stack[2] === OPEN_OBJECT && inMessage && this.keys[2] === 'usage';
    const keep = (keys: Set<string>, into: Record<string, unknown>) => (key !== null && keys.has(key) && !(key in into) ? into : null);
    this.target =
      depth === 1
        ? keep(TOP_KEYS, this.top)
        : depth === 2 && inMessage && this.stack[1] === OPEN_OBJECT
          ? keep(MESSAGE_KEYS, this.message)
          : inUsage
            ? keep(USAGE_KEYS, this.usage)
            : inFirstBlock
              ? keep(BLOCK_KEYS, this.block)
              : null;
    this.capture = this.target === null ? null : [];
  }

  private keep(b: number): void {
    if (this.capture === null) return;
    this.capture.push(b);
    if (this.capture.length > MAX_KEPT_VALUE) this.capture = null;
  }

  private endString(): void {
    this.inString = false;
    const raw = this.capture === null ? null : Buffer.from(this.capture).toString('utf8');
    if (this.stringIsKey) {
      const key = raw === null ? undefined : decode(`"${raw}"`);
      this.pendingKey = typeof key === 'string' ? key : null;
      this.expectKey = false;
    } else this.store(raw === null ? undefined : decode(`"${raw}"`));
    this.capture = null;
  }

  private endScalar(): void {
    if (!this.inScalar) return;
    this.inScalar = false;
    if (this.capture !== null) this.store(decode(Buffer.from(this.capture).toString('utf8')));
    this.capture = null;
  }

  private store(value: unknown): void {
    const key = this.pendingKey;
    if (this.target !== null && key !== null && value !== undefined) this.target[key] = value;
    this.target = null;
  }
}

/**
 * The record an over-long line is read as: its graph fields, and a marker in place of its
 * content (a tool_result or tool_use block when the line held one, so calls still pair).
 */
export function oversizeStub(scan: OversizeLineScanner, maxLineBytes = MAX_LINE_BYTES): RawTranscriptRecord {
  // No line number: a line read again on its own (history read) must give the same stub.
  const marker = `[content not read: ${scan.bytes} bytes on one line, over the ${maxLineBytes}-byte line cap]`;
  const record: RawTranscriptRecord = { ...scan.top, oversizeLineBytes: scan.bytes };
  const b = scan.block;
  if (record.type === 'user' || record.type === 'assistant') {
    const block =
      b.type === 'tool_result' && typeof b.tool_use_id === 'string'
        ? { type: 'tool_result', tool_use_id: b.tool_use_id, content: marker, ...(b.is_error === true ? { is_error: true } : {}) }
        : b.type === 'tool_use' && typeof b.id === 'string'
          ? { type: 'tool_use', id: b.id, name: typeof b.name === 'string' ? b.name : '?', input: { description: marker } }
          : { type: 'text', text: marker };
    const usage = Object.keys(scan.usage).length > 0 ? { usage: { ...scan.usage } } : {};
    record.message = { role: record.type, ...scan.message, ...usage, content: [block] };
  } else if (record.type === 'attachment') {
    record.attachment = { type: 'oversize' };
    record.rendered = [{ content: marker }];
  } else if (record.type === 'system') {
    record.content = marker;
  }
  return record;
}

function decode(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
