import { readFileSync } from 'node:fs';
import { parseTranscriptChunk } from '../../lib/transcript/jsonl';
import { JsonlLineReader, type ReadLine } from '../../lib/transcript/jsonl-reader';
import { SAMPLE_PATH } from '../hosts/claude/transcript-builder';

/** Reads `bytes` through a JsonlLineReader in pieces of `size` bytes, into one reused buffer like a file read. */
function readAll(bytes: Uint8Array, size: number, options: ConstructorParameters<typeof JsonlLineReader>[1] = {}, includeUnterminated = true) {
  const lines: ReadLine[] = [];
  const reader = new JsonlLineReader((l) => lines.push(l), options);
  const buffer = new Uint8Array(size);
  for (let at = 0; at < bytes.length; at += size) {
    const piece = bytes.subarray(at, at + size);
    buffer.set(piece);
    reader.push(buffer.subarray(0, piece.length));
    buffer.fill(0x20); // a reader that kept a view on the buffer instead of a copy reads spaces
  }
  const end = reader.end({ includeUnterminated });
  return { lines, end, reader };
}

describe('JsonlLineReader', () => {
  const text = readFileSync(SAMPLE_PATH, 'utf8');
  const bytes = new TextEncoder().encode(text);

  it.each([1, 7, 4096, 1 << 20])('reads the real sample in %i-byte pieces exactly as parseTranscriptChunk reads it whole', (size) => {
    const whole = parseTranscriptChunk(text);
    const { lines, end } = readAll(bytes, size);
    expect(lines.map((l) => l.record)).toEqual(whole.records);
    expect(end).toEqual({ consumedBytes: whole.consumedBytes, lines: whole.lines });
  });

  it('gives each line its byte offset and length', () => {
    const { lines } = readAll(bytes, 333);
    for (const l of lines) {
      const line = new TextDecoder().decode(bytes.subarray(l.offset, l.offset + l.bytes));
      expect(JSON.parse(line)).toEqual(l.record!.data);
      expect(bytes[l.offset + l.bytes]).toBe(10);
    }
  });

  it('never holds more than maxLineBytes of a line: a longer one is scanned into a stub', () => {
    const huge = JSON.stringify({ type: 'user', uuid: 'u2', parentUuid: 'u1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'y'.repeat(200_000) }] } });
    const input = new TextEncoder().encode(`{"type":"user","uuid":"u1"}\n${huge}\n{"type":"user","uuid":"u3"}\n`);
    for (const size of [1000, 64 * 1024, input.length]) {
      const { lines, reader, end } = readAll(input, size, { maxLineBytes: 4096 });
      expect(reader.peakHeldBytes).toBeLessThanOrEqual(4096);
      expect(lines.map((l) => l.problem?.code ?? null)).toEqual([null, 'JSONL_LINE_TOO_LONG', null]);
      expect(lines[1]).toEqual(expect.objectContaining({ offset: 28, bytes: huge.length, problem: expect.objectContaining({ line: 2, bytes: huge.length }) }));
      expect(lines[1]!.record!.data).toEqual(expect.objectContaining({ uuid: 'u2', parentUuid: 'u1', oversizeLineBytes: huge.length }));
      expect(lines[2]!.record!.data.uuid).toBe('u3');
      expect(end).toEqual({ consumedBytes: input.length, lines: 3 });
    }
  });

  it('reports an over-long line that is not one object as malformed', () => {
    const { lines } = readAll(new TextEncoder().encode(`{"a":"${'z'.repeat(10_000)}\n`), 512, { maxLineBytes: 4096 });
    expect(lines).toEqual([expect.objectContaining({ problem: expect.objectContaining({ code: 'JSONL_MALFORMED_LINE', line: 1 }) })]);
  });

  it('leaves an unterminated last line unconsumed, reading it only when asked and whole', () => {
    const input = new TextEncoder().encode('{"a":1}\n{"b":2}');
    expect(readAll(input, 3, {}, false).lines).toHaveLength(1);
    const { lines, end } = readAll(input, 3);
    expect(lines.map((l) => l.record?.data)).toEqual([{ a: 1 }, { b: 2 }]);
    expect(end).toEqual({ consumedBytes: 8, lines: 1 });
    expect(readAll(new TextEncoder().encode('{"a":1}\n{"b":'), 3).lines).toHaveLength(1);
  });

  it('numbers lines and offsets from baseLine and startByte, across CRLF and blank lines', () => {
    const { lines, end } = readAll(new TextEncoder().encode('{"a":1}\r\n\n{"b":"é"}\n'), 2, { baseLine: 10, startByte: 1000 });
    expect(lines.map((l) => [l.record!.line, l.offset])).toEqual([[11, 1000], [13, 1010]]);
    expect(end).toEqual({ consumedBytes: 21, lines: 3 });
  });
});
