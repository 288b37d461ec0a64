import { CapsuleError } from '../errors/capsule-error';
import { contentBlocks, GRAPH_RECORD_TYPES, toolResultText, type ContentBlock, type RawTranscriptRecord, type TranscriptRecord } from './records';
import type { HistoryEvent, HistoryRole } from './history-types';
import { summariseToolInput } from './history-text';

/** The first occurrence of a uuid and the facts later occurrences may change. */
export interface GraphNode {
  uuid: string;
  record: RawTranscriptRecord;
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

/**
 * Allocates seqs over first-occurrence append order, before any branch selection: one per
 * user/assistant/system/attachment record, one more per tool_use and per tool_result block. A
 * repeated uuid allocates nothing; a result pairs with its call by tool_use_id and its seq
 * redirects to the call. Other record types get no address.
 * Throws HISTORY_INVALID_RECORD and HISTORY_CONFLICTING_DUPLICATE, naming the line.
 */
export function allocateAddresses(records: TranscriptRecord[]): AddressBook {
  const nodes = new Map<string, GraphNode>();
  const allocator = new Allocator();
  for (const { line, data } of records) {
    if (typeof data.type !== 'string' || !GRAPH_RECORD_TYPES.has(data.type)) continue;
    checkShape(data, line);
    const uuid = data.uuid as string;
    const known = nodes.get(uuid);
    if (known) {
      if (contentKey(known.record) !== contentKey(data)) {
        throw new CapsuleError('HISTORY_CONFLICTING_DUPLICATE', `history: uuid ${uuid} is recorded with different content on line ${known.line} and line ${line}; expected a repeated uuid to repeat the same record. The transcript was edited or corrupted; pass --file a clean copy.`, { uuid, line, firstLine: known.line });
      }
      known.parentUuid = data.parentUuid ?? null;
      known.lastLine = line;
      continue;
    }
    const event = allocator.allocate({ uuid, line, timestamp: typeof data.timestamp === 'string' ? data.timestamp : undefined, role: roleOf(data), text: visibleText(data), tags: tagsOf(data) });
    const node: GraphNode = { uuid, record: data, line, parentUuid: data.parentUuid ?? null, lastLine: line, event, calls: [], orphans: [] };
    nodes.set(uuid, node);
    if (data.type === 'assistant' || data.type === 'user') allocator.toolBlocks(node, contentBlocks(data));
  }
  return { nodes, addresses: allocator.addresses, redirects: allocator.redirects };
}

// Hands out seqs in order and pairs tool results with the calls seen before them.
class Allocator {
  readonly addresses = new Map<number, HistoryEvent>();
  readonly redirects = new Map<number, number>();
  private readonly callsById = new Map<string, HistoryEvent>();
  private next = 1;

  allocate(event: Omit<HistoryEvent, 'seq'>): HistoryEvent {
    const full = { seq: this.next++, ...event };
    this.addresses.set(full.seq, full);
    return full;
  }

  toolBlocks(node: GraphNode, blocks: ContentBlock[]): void {
    const base = { uuid: node.uuid, line: node.line, timestamp: node.event.timestamp, role: 'tool' as const, text: '', tags: [] };
    for (const block of blocks) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && !this.callsById.has(block.id)) {
        const call = this.allocate({ ...base, tool: { id: block.id, name: block.name ?? '?', input: summariseToolInput(block.input), status: 'pending' } });
        this.callsById.set(block.id, call);
        node.calls.push(call);
      } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const result = toolResultText(block);
        const call = this.callsById.get(block.tool_use_id);
        if (call?.tool && call.tool.resultSeq === undefined) {
          const seq = this.next++;
          this.redirects.set(seq, call.seq);
          Object.assign(call.tool, { status: block.is_error === true ? 'error' : 'ok', result, resultSeq: seq });
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

// What must agree between two records with one uuid: their kind and their content, not their links.
function contentKey(d: RawTranscriptRecord): string {
  return JSON.stringify([d.type, d.subtype ?? null, d.message?.content ?? null, d.attachment ?? null, typeof d.content === 'string' ? d.content : null]);
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
