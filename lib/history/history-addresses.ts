import { createHash, type Hash } from 'node:crypto';
import { CapsuleError } from '../errors/capsule-error';
import { contentBlocks, GRAPH_RECORD_TYPES, toolResultText, type ContentBlock, type RawTranscriptRecord, type TranscriptRecord } from '../transcript/records';
import type { HistoryEvent, HistoryRole } from './history-types';
import { detach } from '../transcript/detach';
import { digestBody } from './history-digest';
import { summariseToolInput } from './history-text';

/** The first occurrence of a uuid and the facts later occurrences may change. */
export interface GraphNode {
  uuid: string;
  /** The graph fields of the first occurrence; never its content, so a long transcript is not held whole. */
  record: Pick<RawTranscriptRecord, 'type' | 'subtype' | 'parentUuid' | 'logicalParentUuid'>;
  /** A hash of what a repeated uuid must repeat (its kind and content). */
  contentKey: number;
  line: number;
  /** parentUuid of the latest occurrence (the host rewrites links, never content). */
  parentUuid: string | null;
  lastLine: number;
  /** The message/attachment/notice event of this record. */
  event: HistoryEvent;
  /** The tool calls this record made, in block order. */
  calls: HistoryEvent[];
  /** Results that named no recorded call. */
  orphans: HistoryEvent[];
}

/** Addresses allocated over a transcript, in first-occurrence append order. */
export interface AddressBook {
  nodes: Map<string, GraphNode>;
  addresses: Map<number, HistoryEvent>;
  redirects: Map<number, number>;
}

/** Options for AddressBookBuilder. */
export interface AddressOptions {
  /**
   * False: events keep no text, only a digest (emptiness, query hit) and the byte
   * offsets of their lines, and are given their text again with withText() when a page shows
   * them; so memory grows with the number of events, not with their size. Default true.
   */
  keepText?: boolean;
  /** The literal query whose case-insensitive hit each digest records (with keepText false). */
  query?: string;
}

/**
 * Allocates seqs over first-occurrence append order, before any branch selection: one per
 * user/assistant/system/attachment record, one more per tool_use and per tool_result block. A
 * repeated uuid allocates nothing; a result pairs with its call by tool_use_id and its seq
 * redirects to the call. Other record types get no address.
 * Throws HISTORY_INVALID_RECORD and HISTORY_CONFLICTING_DUPLICATE, naming the line.
 */
export function allocateAddresses(records: TranscriptRecord[], options: AddressOptions = {}): AddressBook {
  const builder = new AddressBookBuilder(options);
  for (const record of records) builder.add(record);
  return builder.book();
}

/** allocateAddresses one record at a time, for a reader that streams the file. */
export class AddressBookBuilder {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly allocator: Allocator;

  constructor(options: AddressOptions = {}) {
    this.allocator = new Allocator(options);
  }

  /** Adds the next record in file order; `offset` is its line's byte offset (for withText). Throws as allocateAddresses. */
  add({ line, data }: TranscriptRecord, offset?: number): void {
    if (typeof data.type !== 'string' || !GRAPH_RECORD_TYPES.has(data.type)) return;
    checkShape(data, line);
    const uuid = data.uuid as string;
    const known = this.nodes.get(uuid);
    const key = contentKey(data);
    if (known) {
      if (known.contentKey !== key) {
        throw new CapsuleError('HISTORY_CONFLICTING_DUPLICATE', `history: uuid ${uuid} is recorded with different content on line ${known.line} and line ${line}; expected a repeated uuid to repeat the same record. The transcript was edited or corrupted; pass --file a clean copy.`, { uuid, line, firstLine: known.line });
      }
      known.parentUuid = data.parentUuid ?? null;
      known.lastLine = line;
      return;
    }
    const event = this.allocator.allocate({ uuid, line, offset, timestamp: typeof data.timestamp === 'string' ? data.timestamp : undefined, role: roleOf(data), text: visibleText(data), tags: tagsOf(data) });
    const record = { type: data.type, subtype: data.subtype, parentUuid: data.parentUuid, logicalParentUuid: data.logicalParentUuid };
    const node: GraphNode = { uuid, record, contentKey: key, line, parentUuid: data.parentUuid ?? null, lastLine: line, event, calls: [], orphans: [] };
    this.nodes.set(uuid, node);
    if (data.type === 'assistant' || data.type === 'user') this.allocator.toolBlocks(node, contentBlocks(data), offset);
  }

  /** The addresses allocated so far. */
  book(): AddressBook {
    return { nodes: this.nodes, addresses: this.allocator.addresses, redirects: this.allocator.redirects };
  }
}

/**
 * An event kept without text (AddressOptions.keepText false) with its text again, from the
 * records at its offsets: `record` at event.offset, `result` at event.tool.resultOffset.
 */
export function withText(event: HistoryEvent, record: RawTranscriptRecord | null, result: RawTranscriptRecord | null): HistoryEvent {
  if (!event.digest) return event;
  const tool = event.tool;
  if (!tool) return { ...event, text: record === null ? '' : visibleText(record) };
  const source = tool.status === 'orphan-result' ? record : result;
  const block = source === null ? undefined : contentBlocks(source).find((b) => b.type === 'tool_result' && b.tool_use_id === tool.id);
  return { ...event, tool: { ...tool, result: tool.status === 'pending' ? undefined : block === undefined ? '' : toolResultText(block) } };
}

// Hands out seqs in order and pairs tool results with the calls seen before them.
class Allocator {
  readonly addresses = new Map<number, HistoryEvent>();
  readonly redirects = new Map<number, number>();
  private readonly callsById = new Map<string, HistoryEvent>();
  private next = 1;
  private readonly needle: string | undefined;

  constructor(private readonly options: AddressOptions) {
    this.needle = options.query?.toLowerCase();
  }

  allocate(event: Omit<HistoryEvent, 'seq'>): HistoryEvent {
    const full = this.settle({ seq: this.next++, ...event });
    this.addresses.set(full.seq, full);
    return full;
  }

  // Without keepText, an event's body is digested while its text is at hand, then dropped.
  private settle(event: HistoryEvent): HistoryEvent {
    if (this.options.keepText !== false) return event;
    event.digest = digestBody(event, this.needle);
    event.text = '';
    if (event.tool?.result !== undefined) event.tool.result = '';
    return event;
  }

  toolBlocks(node: GraphNode, blocks: ContentBlock[], offset?: number): void {
    const base = { uuid: node.uuid, line: node.line, offset, timestamp: node.event.timestamp, role: 'tool' as const, text: '', tags: [] };
    for (const block of blocks) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && !this.callsById.has(block.id)) {
        const call = this.allocate({ ...base, tool: { id: detach(block.id), name: detach(block.name ?? '?'), input: detach(summariseToolInput(block.input)), status: 'pending' } });
        this.callsById.set(block.id, call);
        node.calls.push(call);
      } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const result = toolResultText(block);
        const call = this.callsById.get(block.tool_use_id);
        if (call?.tool && call.tool.resultSeq === undefined) {
          const seq = this.next++;
          this.redirects.set(seq, call.seq);
          Object.assign(call.tool, { status: block.is_error === true ? 'error' : 'ok', result, resultSeq: seq, resultOffset: offset });
          this.settle(call);
        } else {
          node.orphans.push(this.allocate({ ...base, tool: { id: block.tool_use_id, name: '?', input: '', status: 'orphan-result', result } }));
        }
      }
    }
  }
}

function checkShape(data: RawTranscriptRecord, line: number): void {
  const problem =
    typeof data.uuid !== 'string' || data.uuid === ''
      ? 'has no uuid'
      : data.parentUuid !== undefined && data.parentUuid !== null && typeof data.parentUuid !== 'string'
        ? 'has a parentUuid that is not a string'
        : (data.type === 'user' || data.type === 'assistant') && (typeof data.message !== 'object' || data.message === null || !(typeof data.message.content === 'string' || Array.isArray(data.message.content)))
          ? 'has no message with string or array content'
          : data.type === 'attachment' && (typeof data.attachment !== 'object' || data.attachment === null)
            ? 'has no attachment object'
            : null;
  if (problem !== null) {
    throw new CapsuleError('HISTORY_INVALID_RECORD', `history: the ${String(data.type)} record on line ${line} ${problem}; expected the Claude Code transcript format (uuid, parentUuid, message or attachment). Pass --file a transcript written by Claude Code.`, { line, type: data.type });
  }
}

// What must agree between two records with one uuid: their kind and their content, not their
// links. Hashed value by value, so neither the first occurrence's content is kept nor a JSON copy
// made; 48 bits of the hash, a number rather than a string, since one is kept per record.
function contentKey(d: RawTranscriptRecord): number {
  const hash = createHash('sha1');
  hashValue(hash, [d.type, d.subtype ?? null, d.message?.content ?? null, d.attachment ?? null, typeof d.content === 'string' ? d.content : null]);
  return hash.digest().readUIntBE(0, 6);
}

function hashValue(hash: Hash, value: unknown): void {
  if (typeof value === 'string') {
    hash.update(`s${value.length}:`).update(value);
  } else if (Array.isArray(value)) {
    hash.update(`a${value.length}[`);
    for (const item of value) hashValue(hash, item);
    hash.update(']');
  } else if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    hash.update(`o${keys.length}{`);
    for (const key of keys) {
      hash.update(`s${key.length}:`).update(key);
      hashValue(hash, (value as Record<string, unknown>)[key]);
    }
    hash.update('}');
  } else hash.update(`${String(value)};`);
}

function roleOf(d: RawTranscriptRecord): HistoryRole {
  return d.type === 'user' || d.type === 'assistant' || d.type === 'system' ? d.type : 'attachment';
}

function tagsOf(d: RawTranscriptRecord): string[] {
  const tags: string[] = [];
  if (d.type === 'attachment' && typeof d.attachment?.type === 'string') tags.push(d.attachment.type);
  if (d.type === 'system' && typeof d.subtype === 'string') tags.push(d.subtype);
  if (d.isMeta === true) tags.push('meta');
  if (d.isCompactSummary === true) tags.push('compact-summary');
  if (d.isApiErrorMessage === true) tags.push('api-error');
  return tags;
}

/** Text blocks and rendered attachment text; never thinking, tool payloads or raw attachment fields. */
function visibleText(d: RawTranscriptRecord): string {
  if (d.type === 'attachment') {
    return (d.rendered ?? [])
      .map((r) => (r && typeof r.content === 'string' ? r.content : ''))
      .filter((t) => t !== '')
      .join('\n');
  }
  if (d.type === 'system') return typeof d.content === 'string' ? d.content : '';
  return contentBlocks(d)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n\n');
}
