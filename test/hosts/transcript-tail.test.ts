import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTranscriptTail } from '../../lib/hosts/transcript-tail';
import { JsonlLineReader } from '../../lib/transcript/jsonl-reader';
import { tempDir } from '../support/temp-dirs';

// A pick in the shape of the hosts' own: a value from a record with usage, null from a
// compaction (what came before is stale), undefined from everything else.
const pick = (record: Record<string, unknown>) => (typeof record.usage === 'number' ? record.usage : record.compacted === true ? null : undefined);

/** What the same pick keeps when every line of the tail is read from its start (the line reader, as before). */
function keptReadingForward(text: string, tailBytes: number): number | null {
  const bytes = new TextEncoder().encode(text);
  let found: number | null | undefined;
  const reader = new JsonlLineReader((l) => {
    const said = l.record ? pick(l.record.data) : undefined;
    if (said !== undefined) found = said;
  });
  reader.push(bytes.subarray(Math.max(0, bytes.length - tailBytes)));
  reader.end({ includeUnterminated: true });
  return found ?? null;
}

const file = (text: string) => {
  const path = join(tempDir('capsule-tail-'), 't.jsonl');
  writeFileSync(path, text);
  return path;
};
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('readTranscriptTail', () => {
  it('parses only back to the newest record that says something, not the whole tail (it runs before every prompt)', () => {
    const records = Array.from({ length: 1000 }, (_, i) => line({ usage: i, pad: 'x'.repeat(100) })).join('');
    let calls = 0;
    const read = readTranscriptTail(file(`${records}${line({ other: true })}`), (r) => (calls++, pick(r)));
    expect(read).toMatchObject({ ok: true, found: 999 });
    expect(calls).toBe(2);
  });

  it.each([
    ['an unterminated last line that parses whole', `${line({ usage: 1 })}{"usage":2}`],
    ['an unterminated last line cut mid-record', `${line({ usage: 1 })}{"usage":2`],
    ['a compaction after the last usage', `${line({ usage: 1 })}${line({ compacted: true })}${line({ other: 1 })}`],
    ['CRLF line ends and blank lines', `${line({ usage: 3 })}\r\n\n{"usage":4}\r\n\n\n`],
    ['malformed and non-object lines after the usage', `${line({ usage: 5 })}not json\n[1,2]\n"text"\n`],
    ['nothing that says anything', `${line({ other: 1 })}${line({ other: 2 })}`],
  ])('keeps what reading from the start keeps, with %s', (_name, text) => {
    expect(readTranscriptTail(file(text), pick)).toMatchObject({ ok: true, found: keptReadingForward(text, Infinity) });
  });

  it('keeps what reading from the start keeps when the 256 KiB tail starts mid-record, and reads further back when the tail says nothing', () => {
    const old = line({ usage: 7, pad: 'y'.repeat(1000) });
    const filler = Array.from({ length: 400 }, (_, i) => line({ other: i, pad: 'z'.repeat(1000) })).join('');
    const text = `${old}${filler}`;
    expect(keptReadingForward(text, 256 * 1024)).toBeNull();
    const read = readTranscriptTail(file(text), pick);
    expect(read).toMatchObject({ ok: true, found: 7 });
    if (read.ok) expect(read.bytesRead).toBe(Buffer.byteLength(text));
  });
});
