import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advanceCursor, readTranscriptDelta } from '../../lib/hooks/transcript-delta';

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

  it('trusts a cursor an earlier version wrote with a sha1 of the head, and restarts when that head changed', () => {
    writeFileSync(file, line(1) + line(2));
    const first = readTranscriptDelta(file, undefined)!;
    const sha1 = createHash('sha1').update(readFileSync(file, 'latin1').slice(0, first.headLength), 'latin1').digest('hex');
    const legacy = { ...advanceCursor(first, consume(first.text)), head: sha1 };
    appendFileSync(file, line(3));
    expect(readTranscriptDelta(file, legacy)).toMatchObject({ text: line(3), restarted: false });
    writeFileSync(file, line(7) + line(8) + line(9));
    expect(readTranscriptDelta(file, legacy)!.restarted).toBe(true);
  });

  it('restarts when the head changed but kept its length', () => {
    writeFileSync(file, line(1) + line(2));
    const first = readTranscriptDelta(file, undefined)!;
    const cursor = advanceCursor(first, consume(first.text));
    writeFileSync(file, line(1).replace('prompt 1', 'prompt X') + line(2) + line(3));
    expect(readTranscriptDelta(file, cursor)!.restarted).toBe(true);
  });
});
