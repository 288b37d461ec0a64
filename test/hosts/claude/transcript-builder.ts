import type { RawTranscriptRecord, TranscriptRecord } from '../../../lib/transcript/records';

/**
 * Builds crafted transcripts: each row gets a uuid `u<n>` and, unless told otherwise, the
 * previous row as its parent, like the host's chain.
 */
export class TranscriptBuilder {
  readonly rows: RawTranscriptRecord[] = [];
  private n = 0;
  private last: string | null = null;

  constructor(readonly sessionId = 'sess-1', readonly cwd = '/proj') {}

  add(partial: RawTranscriptRecord): RawTranscriptRecord {
    const uuid = partial.uuid ?? `u${++this.n}`;
    const parentUuid = 'parentUuid' in partial ? partial.parentUuid : this.last;
    const row: RawTranscriptRecord = {
      isSidechain: false,
      sessionId: this.sessionId,
      cwd: this.cwd,
      timestamp: `2026-11-29T10:00:${String(this.rows.length).padStart(2, '0')}.000Z`,
      ...partial,
      uuid,
      parentUuid,
    };
    this.rows.push(row);
    this.last = uuid;
    return row;
  }

  user(text: string, extra: RawTranscriptRecord = {}): RawTranscriptRecord {
    return this.add({ type: 'user', message: { role: 'user', content: text }, ...extra });
  }

  assistant(text: string, extra: RawTranscriptRecord = {}): RawTranscriptRecord {
    return this.add({ type: 'assistant', message: { id: `msg_${this.n}`, role: 'assistant', content: [{ type: 'text', text }] }, ...extra });
  }

  thinking(text: string): RawTranscriptRecord {
    return this.add({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'thinking', thinking: text }] } });
  }

  toolUse(id: string, name: string, input: Record<string, unknown>, extra: RawTranscriptRecord = {}): RawTranscriptRecord {
    return this.add({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] }, ...extra });
  }

  toolResult(id: string, content: string, isError = false, extra: RawTranscriptRecord = {}): RawTranscriptRecord {
    const block = isError ? { type: 'tool_result', tool_use_id: id, content, is_error: true } : { type: 'tool_result', tool_use_id: id, content };
    return this.add({ type: 'user', message: { role: 'user', content: [block] }, ...extra });
  }

  attachment(type: string, rendered?: string, extra: RawTranscriptRecord = {}): RawTranscriptRecord {
    return this.add({
      type: 'attachment',
      attachment: { type, payload: `RAW-${type}-PAYLOAD` },
      ...(rendered === undefined ? {} : { rendered: [{ content: rendered }], renderedRole: 'system' }),
      ...extra,
    });
  }

  boundary(extra: RawTranscriptRecord = {}): RawTranscriptRecord {
    return this.add({
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      parentUuid: null,
      logicalParentUuid: this.last,
      ...extra,
    });
  }

  /** Appends a row without a uuid (metadata the history must ignore). */
  meta(row: Record<string, unknown>): void {
    this.rows.push(row as RawTranscriptRecord);
  }

  text(): string {
    return this.rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  }

  records(): TranscriptRecord[] {
    return this.rows.map((data, i) => ({ line: i + 1, data }));
  }
}

/** The real 11-step transcript from the claude-harness (paths rewritten to /home/dev/project). */
export const SAMPLE_PATH = `${__dirname}/../../fixtures/transcript-sample.jsonl`;
export const SAMPLE_SESSION = 'be432d9d-65be-4eb2-b8b5-e7b9ae7fd1f1';
