import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeRecordView } from '../../lib/hosts/claude/record-view';
import { advanceCursor, readTranscriptDelta } from '../../lib/hosts/transcript-delta';
import { SLIM_STRING_CHARS } from '../../lib/transcript/slim-record';

const line = (n: number) => `${JSON.stringify({ type: 'user', uuid: `u${n}`, message: { role: 'user', content: `prompt ${n}` } })}\n`;

/** Consumes the complete lines of a delta, as the JSONL reader does. */
function consume(text: string) {
  const committed = text.slice(0, text.lastIndexOf('\n') + 1);
  return { consumedBytes: Buffer.byteLength(committed), lines: committed.split('\n').length - 1 };
}

describe('readTranscriptDelta', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'capsule-delta-'));
    file = join(dir, 't.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('returns null for a missing file', () => {
    expect(readTranscriptDelta(join(dir, 'missing.jsonl'), undefined)).toBeNull();
  });

  it('reads only what was appended since the cursor', () => {
    writeFileSync(file, line(1) + line(2));
    const first = readTranscriptDelta(file, undefined)!;
    const cursor = advanceCursor(first, consume(first.text));
    appendFileSync(file, line(3));
    const second = readTranscriptDelta(file, cursor)!;
    expect(second.text).toBe(line(3));
    expect(second.baseLine).toBe(2);
    expect(second.restarted).toBe(false);
  });

  it('leaves an unterminated last line to be read again once complete', () => {
    writeFileSync(file, line(1) + line(2).slice(0, 20));
    const first = readTranscriptDelta(file, undefined)!;
    const cursor = advanceCursor(first, consume(first.text));
    appendFileSync(file, line(2).slice(20));
    expect(readTranscriptDelta(file, cursor)!.text).toBe(line(2));
  });

  it('restarts from 0 when the file is shorter than the cursor', () => {
    writeFileSync(file, line(1) + line(2) + line(3));
    const first = readTranscriptDelta(file, undefined)!;
    const cursor = advanceCursor(first, consume(first.text));
    writeFileSync(file, line(9));
    const again = readTranscriptDelta(file, cursor)!;
    expect(again).toMatchObject({ text: line(9), startBytes: 0, baseLine: 0, restarted: true });
  });

  it('restarts from 0 when the head of the file was replaced with a longer one', () => {
    writeFileSync(file, line(1));
    const first = readTranscriptDelta(file, undefined)!;
    const cursor = advanceCursor(first, consume(first.text));
    writeFileSync(file, line(7) + line(8) + line(9));
    const again = readTranscriptDelta(file, cursor)!;
    expect(again.restarted).toBe(true);
    expect(again.text).toBe(line(7) + line(8) + line(9));
  });

  it('restarts from 0 when the cursor holds a head in a form this version does not write', () => {
    writeFileSync(file, line(1) + line(2));
    const first = readTranscriptDelta(file, undefined)!;
    const sha1 = createHash('sha1').update(readFileSync(file, 'latin1').slice(0, first.headLength), 'latin1').digest('hex');
    const legacy = { ...advanceCursor(first, consume(first.text)), head: sha1 };
    appendFileSync(file, line(3));
    expect(readTranscriptDelta(file, legacy)).toMatchObject({ text: line(1) + line(2) + line(3), restarted: true });
  });

  it('restarts when the head changed but kept its length', () => {
    writeFileSync(file, line(1) + line(2));
    const first = readTranscriptDelta(file, undefined)!;
    const cursor = advanceCursor(first, consume(first.text));
    writeFileSync(file, line(1).replace('prompt 1', 'prompt X') + line(2) + line(3));
    expect(readTranscriptDelta(file, cursor)!.restarted).toBe(true);
  });

  describe('over the text limit', () => {
    const small = { maxTextBytes: 1000, maxStreamedBytes: 1_000_000 };
    const big = (n: number) => `${JSON.stringify({ type: 'user', uuid: `u${n}`, message: { role: 'user', content: `prompt ${n} ${'x'.repeat(20_000)}` } })}\n`;
    const contents = (d: ReturnType<typeof readTranscriptDelta>) => d!.streamed!.records.map((r) => String((r.data.message as { content: string }).content));

    it('streams every line of the delta, long strings cut, and consumes it all', () => {
      writeFileSync(file, line(1));
      const first = readTranscriptDelta(file, undefined, { limits: small })!;
      const cursor = advanceCursor(first, consume(first.text));
      appendFileSync(file, line(2) + big(3) + line(4));
      const delta = readTranscriptDelta(file, cursor, { limits: small })!;
      expect(delta).toMatchObject({ text: '', skippedBytes: 0, baseLine: 1, startBytes: cursor.bytes });
      expect(contents(delta).map((c) => c.slice(0, 8))).toEqual(['prompt 2', 'prompt 3', 'prompt 4']);
      expect(contents(delta)[1]).toHaveLength(SLIM_STRING_CHARS);
      expect(advanceCursor(delta, delta.streamed!).bytes).toBe(readFileSync(file).length);
    });

    it('reads only the last window of a longer delta, from a whole line, and says how much it skipped', () => {
      writeFileSync(file, line(1));
      const first = readTranscriptDelta(file, undefined, { limits: small })!;
      const cursor = advanceCursor(first, consume(first.text));
      for (let n = 2; n < 60; n++) appendFileSync(file, big(n));
      const limits = { maxTextBytes: 1000, maxStreamedBytes: Math.floor(3.5 * big(2).length) };
      const delta = readTranscriptDelta(file, cursor, { limits })!;
      expect(contents(delta).map((c) => c.slice(0, 9))).toEqual(['prompt 57', 'prompt 58', 'prompt 59']);
      expect(delta.skippedBytes).toBe(delta.startBytes - cursor.bytes);
      expect(delta.skippedBytes).toBeGreaterThan(0);
      expect(advanceCursor(delta, delta.streamed!).bytes).toBe(readFileSync(file).length);
    });

    it('counts nothing as skipped on a first read, whose tail is by design', () => {
      for (let n = 1; n < 60; n++) appendFileSync(file, big(n));
      const delta = readTranscriptDelta(file, undefined, { limits: { maxTextBytes: 1000, maxStreamedBytes: Math.floor(3.5 * big(2).length) } })!;
      expect(delta.skippedBytes).toBe(0);
      expect(delta.streamed!.records).toHaveLength(3);
    });

    it("keeps only the part of each streamed record the host's reader reads when given its view", () => {
      const request = `${JSON.stringify({ type: 'api-request', uuid: 'r1', timestamp: 't1', gitBranch: 'main', params: { body: 'y'.repeat(20_000) } })}\n`;
      writeFileSync(file, request + big(1));
      const delta = readTranscriptDelta(file, undefined, { limits: small, view: claudeRecordView })!;
      expect(delta.streamed!.records.map((r) => r.data)).toEqual([
        { type: 'api-request', uuid: 'r1', timestamp: 't1', gitBranch: 'main' },
        { type: 'user', uuid: 'u1', message: { role: 'user', content: expect.stringMatching(/^prompt 1 x+$/) } },
      ]);
    });

    it('redacts what the view keeps of a streamed record', () => {
      writeFileSync(file, `${JSON.stringify({ type: 'user', uuid: 'u1', message: { role: 'user', content: `deploy with AKIAIOSFODNN7EXAMPLQ ${'x'.repeat(2000)}` } })}\n`);
      const delta = readTranscriptDelta(file, undefined, { limits: small, view: claudeRecordView })!;
      expect(JSON.stringify(delta.streamed!.records)).not.toContain('AKIAIOSFODNN7EXAMPLQ');
    });
  });
});
