import { readFileSync } from 'node:fs';
import { parseTranscriptChunk } from '../../lib/transcript/jsonl';
import { SAMPLE_PATH } from '../hosts/claude/transcript-builder';

describe('parseTranscriptChunk', () => {
  it('reads every line of the real sample transcript with its line number', () => {
    const text = readFileSync(SAMPLE_PATH, 'utf8');
    const chunk = parseTranscriptChunk(text);
    expect(chunk.problems).toEqual([]);
    expect(chunk.records).toHaveLength(195);
    expect(chunk.records[4]!.line).toBe(5);
    expect(chunk.records[4]!.data.message?.content).toBe('hello');
    expect(chunk.consumedBytes).toBe(Buffer.byteLength(text));
    expect(chunk.leftover).toBe('');
  });

  it.each([
    ['an unterminated final line', '{"a":1}\n{"b":', 1, '{"b":'],
    ['an unterminated but complete final record', '{"a":1}\n{"b":2}', 1, '{"b":2}'],
    ['only an unterminated line', '{"a":', 0, '{"a":'],
    ['empty text', '', 0, ''],
  ])('tolerates %s as leftover, not a problem', (_name, text, count, leftover) => {
    const chunk = parseTranscriptChunk(text);
    expect(chunk.problems).toEqual([]);
    expect(chunk.records).toHaveLength(count);
    expect(chunk.leftover).toBe(leftover);
    expect(chunk.consumedBytes).toBe(Buffer.byteLength(text) - Buffer.byteLength(leftover));
  });

  it.each([
    ['a truncated committed line', '{"a":1}\n{"b":\n{"c":3}\n', 'JSONL_MALFORMED_LINE', 2],
    ['a JSON array line', '{"a":1}\n[1,2]\n', 'JSONL_NOT_OBJECT', 2],
    ['a JSON string line', '"x"\n', 'JSONL_NOT_OBJECT', 1],
    ['garbage', '{"a":1}\n\n{"c":3}\nnot json\n', 'JSONL_MALFORMED_LINE', 4],
  ])('reports %s with its line number', (_name, text, code, line) => {
    const chunk = parseTranscriptChunk(text);
    expect(chunk.problems).toEqual([expect.objectContaining({ code, line })]);
  });

  it('numbers lines from baseLine and counts bytes of multi-byte text', () => {
    const text = '{"t":"é✓"}\r\n\n{"t":"z"}\n{"t":';
    const chunk = parseTranscriptChunk(text, { baseLine: 40 });
    expect(chunk.records.map((r) => r.line)).toEqual([41, 43]);
    expect(chunk.lines).toBe(3);
    expect(chunk.consumedBytes).toBe(Buffer.byteLength('{"t":"é✓"}\r\n\n{"t":"z"}\n'));
  });

  it('resumes at a byte cursor without losing or repeating a record', () => {
    const full = Buffer.from('{"n":1}\n{"n":2}\n{"n":3}\n');
    const first = parseTranscriptChunk(full.subarray(0, 12).toString('utf8'));
    const second = parseTranscriptChunk(full.subarray(first.consumedBytes).toString('utf8'), { baseLine: first.lines });
    expect([...first.records, ...second.records].map((r) => [r.line, r.data.n])).toEqual([[1, 1], [2, 2], [3, 3]]);
  });

  it('includes a complete unterminated record only when asked, without consuming it', () => {
    const chunk = parseTranscriptChunk('{"n":1}\n{"n":2}', { includeUnterminated: true });
    expect(chunk.records.map((r) => r.data.n)).toEqual([1, 2]);
    expect(chunk.consumedBytes).toBe(8);
    expect(parseTranscriptChunk('{"n":1}\n{"n":', { includeUnterminated: true }).records).toHaveLength(1);
  });
});
