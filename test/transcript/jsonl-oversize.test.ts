import { OversizeLineScanner, oversizeStub } from '../../lib/transcript/jsonl-oversize';
import { parseTranscriptChunk } from '../../lib/transcript/jsonl';
import { recordFill } from '../../lib/budget/context-fill';
import { projectHistory } from '../../lib/history/history-project';
import { eventBody } from '../../lib/history/history-text';
import { TranscriptBuilder } from '../hosts/claude/transcript-builder';

const encode = (text: string) => new TextEncoder().encode(text);

/** Feeds `text` to a scanner in pieces of `size` bytes. */
function scan(text: string, size = 7): OversizeLineScanner {
  const scanner = new OversizeLineScanner();
  const bytes = encode(text);
  for (let at = 0; at < bytes.length; at += size) scanner.push(bytes.subarray(at, at + size));
  return scanner;
}

const big = 'x"\\\n{[é→'.repeat(5000);

describe('OversizeLineScanner', () => {
  it('keeps the graph fields and the first content block of a giant tool result, in any piece size', () => {
    const line = JSON.stringify({
      parentUuid: 'p1',
      isSidechain: false,
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: big, is_error: true }] },
      uuid: 'u2',
      timestamp: '2026-11-29T10:00:00.000Z',
      toolUseResult: { type: 'text', uuid: 'nested', file: { content: big } },
      sessionId: 's1',
    });
    for (const size of [1, 7, 4096, line.length]) {
      const s = scan(line, size);
      expect(s.valid()).toBe(true);
      expect(s.bytes).toBe(encode(line).length);
      expect(s.top).toEqual({ parentUuid: 'p1', isSidechain: false, type: 'user', uuid: 'u2', timestamp: '2026-11-29T10:00:00.000Z', sessionId: 's1' });
      expect(s.block).toEqual({ tool_use_id: 'toolu_1', type: 'tool_result', is_error: true });
    }
  });

  it('keeps a giant tool call as a call with its id and name', () => {
    const line = JSON.stringify({ type: 'assistant', uuid: 'a1', parentUuid: null, message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'Write', input: { file_path: '/f', content: big } }] } });
    const stub = oversizeStub(scan(line), 100);
    expect(stub).toEqual(expect.objectContaining({ type: 'assistant', uuid: 'a1', parentUuid: null, oversizeLineBytes: encode(line).length }));
    expect(stub.message?.content).toEqual([{ type: 'tool_use', id: 'toolu_9', name: 'Write', input: { description: expect.stringMatching(/^\[content not read: \d+ bytes on one line, over the 100-byte line cap\]$/) } }]);
  });

  it('keeps the model and usage of a giant assistant record, so the context fill reads the same from its stub', () => {
    const record = { type: 'assistant', uuid: 'a1', requestedModel: 'claude-opus-5-5[1m]', message: { id: 'msg_1', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'tool_use', id: 't', name: 'Write', input: { content: big, usage: { input_tokens: 1 } } }], usage: { input_tokens: 3, cache_creation_input_tokens: 400, cache_read_input_tokens: 90_000, output_tokens: 7, server_tool_use: { web_search_requests: 0 } } } };
    const stub = oversizeStub(scan(JSON.stringify(record)));
    expect(stub.message).toEqual(expect.objectContaining({ model: 'claude-opus-5-5', usage: { input_tokens: 3, cache_creation_input_tokens: 400, cache_read_input_tokens: 90_000, output_tokens: 7 } }));
    expect(recordFill(stub)).toEqual(recordFill(record));
    expect(recordFill(stub)).toEqual(expect.objectContaining({ tokens: 90_403, model: 'claude-opus-5-5[1m]' }));
  });

  it.each([
    ['a truncated object', '{"type":"user","uuid":"u","x":"abc'],
    ['an array', '[1,2,3]'],
    ['text after the object', '{"type":"user"} {"b":1}'],
    ['mismatched brackets', '{"type":"user","a":[1,2}}'],
    ['a tail starting mid-record', 'ser","content":"x"}]},"uuid":"u"}'],
    ['a tail starting at a nested object', '{"type":"text","text":"x"}]},"uuid":"u"}'],
  ])('reports %s as not one JSON object', (_name, text) => {
    expect(scan(text).valid()).toBe(false);
  });
});

describe('parseTranscriptChunk over the line cap', () => {
  const t = new TranscriptBuilder();
  t.user('go');
  t.toolUse('toolu_1', 'Bash', { command: 'cat huge.log' });
  t.toolResult('toolu_1', big);
  t.assistant('done');
  const text = t.text();

  it('reads a line over maxLineBytes as a stub and a JSONL_LINE_TOO_LONG problem naming it', () => {
    const chunk = parseTranscriptChunk(text, { maxLineBytes: 1000 });
    expect(chunk.problems).toEqual([expect.objectContaining({ code: 'JSONL_LINE_TOO_LONG', line: 3, bytes: Buffer.byteLength(text.split('\n')[2]!) })]);
    expect(chunk.records).toHaveLength(4);
    expect(chunk.records[2]!.data).toEqual(expect.objectContaining({ type: 'user', uuid: 'u3', parentUuid: 'u2' }));
    expect(JSON.stringify(chunk.records[2]!.data)).not.toContain('x"');
    expect(chunk.consumedBytes).toBe(Buffer.byteLength(text));
  });

  it('keeps the history whole: the call pairs with its stubbed result and the chain goes on', () => {
    const p = projectHistory(parseTranscriptChunk(text, { maxLineBytes: 1000 }));
    expect(p.missing).toEqual([]);
    expect(p.oversizeLines).toEqual([3]);
    const call = p.events.find((e) => e.tool?.id === 'toolu_1')!;
    expect(call.tool!.status).toBe('ok');
    expect(eventBody(call)).toMatch(/← \[content not read: \d+ bytes on one line, over the 1000-byte line cap\]$/);
    expect(p.events.at(-1)!.text).toBe('done');
  });

  it('parses lines under the cap as they are', () => {
    expect(parseTranscriptChunk(text).problems).toEqual([]);
    expect(parseTranscriptChunk(text).records[2]!.data).toEqual(t.rows[2]);
  });
});
