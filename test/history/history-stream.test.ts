import { readFileSync } from 'node:fs';
import { isCapsuleError } from '../../lib/errors/capsule-error';
import { withText } from '../../lib/history/history-addresses';
import { digestBody } from '../../lib/history/history-digest';
import { listHistoryPage, readHistoryPage, renderHistoryPage, type HistoryPage } from '../../lib/history/history-page';
import { HistoryBuilder, projectHistory } from '../../lib/history/history-project';
import { eventBody } from '../../lib/history/history-text';
import type { HistoryEvent, HistoryProjection } from '../../lib/history/history-types';
import { parseTranscriptChunk } from '../../lib/transcript/jsonl';
import { JsonlLineReader } from '../../lib/transcript/jsonl-reader';
import type { RawTranscriptRecord } from '../../lib/transcript/records';
import { seededRandom } from '../support/seeded-random';
import { SAMPLE_PATH, TranscriptBuilder } from '../hosts/claude/transcript-builder';

const command = 'git capsule history';

/** The streamed projection (keepText false, as `history` reads a file) and its withText over the same bytes. */
function streamed(text: string, query?: string): { projection: HistoryProjection; withText: (e: HistoryEvent) => HistoryEvent } {
  const builder = new HistoryBuilder({ keepText: false, query });
  const byOffset = new Map<number, RawTranscriptRecord>();
  const reader = new JsonlLineReader((l) => {
    if (l.problem) builder.problem(l.problem);
    if (l.record) {
      builder.add(l.record, l.offset);
      byOffset.set(l.offset, l.record.data);
    }
  });
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += 1000) reader.push(bytes.subarray(at, at + 1000));
  reader.end({ includeUnterminated: true });
  const at = (offset: number | undefined) => (offset === undefined ? null : (byOffset.get(offset) ?? null));
  return { projection: builder.finish(), withText: (e) => withText(e, at(e.offset), at(e.tool?.resultOffset)) };
}

// What a page shows: its text, and its events without the reader's bookkeeping.
const shown = (page: HistoryPage) => ({ text: renderHistoryPage(page), next: page.next, partial: page.partial, events: page.events.map(({ digest: _d, offset: _o, ...e }) => ({ ...e, tool: e.tool && { ...e.tool, resultOffset: undefined } })) });

function longTranscript(): string {
  const t = new TranscriptBuilder();
  const random = seededRandom(11);
  for (let i = 0; i < 40; i++) {
    t.user(`step ${i}: ${'  \n\t '.repeat(Math.floor(random() * 300))}please look at naïve ÉCOLE ${i}`);
    t.toolUse(`toolu_${i}`, i % 3 === 0 ? 'Bash' : 'Read', i % 3 === 0 ? { command: `make test-${i}` } : { file_path: `/p/f${i}.ts` });
    if (i % 7 !== 6) t.toolResult(`toolu_${i}`, `${'line of output '.repeat(Math.floor(random() * 3000))}NEEDLE-${i}${' '.repeat(i * 500)}`, i % 5 === 0);
    t.assistant(i % 4 === 0 ? '   ' : `done ${i} ${'word '.repeat(Math.floor(random() * 100))}`);
  }
  t.toolResult('toolu_never_called', 'orphan output');
  return t.text();
}

describe('history streamed without text (keepText false)', () => {
  const cases: [string, string][] = [
    ['the real sample', readFileSync(SAMPLE_PATH, 'utf8')],
    ['a long crafted session', longTranscript()],
  ];

  it.each(cases)('keeps no text in its events for %s', (_name, text) => {
    const { projection } = streamed(text);
    for (const e of projection.addresses.values()) {
      expect(e.text).toBe('');
      expect(e.tool?.result ?? '').toBe('');
      expect(e.digest).toBeDefined();
    }
  });

  it.each(cases)('lists every page of %s exactly as the projection that keeps text', (_name, text) => {
    const kept = projectHistory(parseTranscriptChunk(text, { includeUnterminated: true }));
    for (const query of [undefined, 'needle-3', 'naïve école', 'output line']) {
      const { projection, withText } = streamed(text, query);
      for (const roles of [undefined, ['user', 'assistant', 'system', 'attachment', 'tool'] as const]) {
        let cursor: number | undefined;
        do {
          const a = listHistoryPage(kept, { command, query, roles, cursor, limit: 7 });
          const b = listHistoryPage(projection, { command, query, roles, cursor, limit: 7, withText });
          expect(shown(b)).toEqual(shown(a));
          cursor = a.next === null ? undefined : Number(a.next);
        } while (cursor !== undefined);
      }
    }
  });

  it.each(cases)('reads every address of %s exactly as the projection that keeps text, cut events included', (_name, text) => {
    const kept = projectHistory(parseTranscriptChunk(text, { includeUnterminated: true }));
    const { projection, withText } = streamed(text);
    for (const seq of kept.events.map((e) => e.seq)) {
      const a = readHistoryPage(kept, { command, seq, limit: 3, budget: 4096 });
      expect(shown(readHistoryPage(projection, { command, seq, limit: 3, budget: 4096, withText }))).toEqual(shown(a));
      if (a.partial !== null) {
        const offset = a.partial.to;
        const cut = readHistoryPage(kept, { command, seq: a.partial.seq, offset, budget: 4096 });
        expect(shown(readHistoryPage(projection, { command, seq: a.partial.seq, offset, budget: 4096, withText }))).toEqual(shown(cut));
      }
    }
  });

  it('refuses a list query other than the one its digests were made for', () => {
    const { projection, withText } = streamed(longTranscript(), 'needle');
    let code: string | undefined;
    try {
      listHistoryPage(projection, { command, query: 'other', withText });
    } catch (err) {
      code = isCapsuleError(err) ? err.code : undefined;
    }
    expect(code).toBe('HISTORY_QUERY_MISMATCH');
  });
});

describe('digestBody', () => {
  it('agrees with eventBody on emptiness and case-insensitive hits for long, spaced and non-ASCII bodies', () => {
    const random = seededRandom(5);
    const alphabet = ['a', 'B', ' ', '\n', '\t', 'é', 'É', 'ß', '→', 'x', 'needle', 'NEEDLE'];
    const text = (n: number) => Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    for (let i = 0; i < 60; i++) {
      const size = [0, 5, 200, 16 * 1024 - 3, 40_000][i % 5]!;
      const body = i % 11 === 0 ? ' \n '.repeat(size) : text(size);
      const events = [
        { text: body },
        { text: '', tool: { name: 'Bash', input: 'ls', status: 'ok', result: body } },
        { text: '', tool: { name: 'Bash', input: 'ls', status: 'error', result: body } },
        { text: '', tool: { name: '?', input: '', status: 'orphan-result', result: body } },
        { text: '', tool: { name: 'Bash', input: '', status: 'pending' } },
      ];
      // The needle across the 16 KiB slice edge of the digest's search.
      const needles = ['needle', 'é\nb', 'a b', body.slice(16 * 1024 - 4, 16 * 1024 + 4).toLowerCase(), 'ls)\n← ', 'zzz'];
      for (const e of events) {
        const full = eventBody(e);
        const lower = full.toLowerCase();
        for (const needle of needles) expect(digestBody(e, needle)).toEqual({ empty: full.trim() === '', hit: lower.includes(needle) });
      }
    }
  });
});
