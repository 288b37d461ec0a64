import { readFileSync } from 'node:fs';
import { isCapsuleError } from '../../lib/errors/capsule-error';
import { parseTranscriptChunk } from '../../lib/transcript/jsonl';
import { projectHistory } from '../../lib/history/history-project';
import { HISTORY_PAGE_BYTES, listHistoryPage, readHistoryPage, renderHistoryPage, type HistoryPage } from '../../lib/history/history-page';
import type { HistoryProjection } from '../../lib/history/history-types';
import { SAMPLE_PATH, TranscriptBuilder } from '../hosts/claude/transcript-builder';

const project = (t: TranscriptBuilder | string) => projectHistory(parseTranscriptChunk(typeof t === 'string' ? t : t.text()));
const seqs = (page: HistoryPage) => page.events.map((e) => e.seq);
const bytes = (page: HistoryPage) => Buffer.byteLength(renderHistoryPage(page));
const command = 'git capsule history list';

function codeOf(fn: () => unknown): { code: string; data: Record<string, unknown> } {
  try {
    fn();
  } catch (err) {
    if (isCapsuleError(err)) return { code: err.code, data: err.data };
    throw err;
  }
  throw new Error('expected an error');
}

function allListPages(p: HistoryProjection, extra: { limit?: number; budget?: number } = {}): HistoryPage[] {
  const pages = [listHistoryPage(p, { command, ...extra })];
  while (pages.at(-1)!.next !== null) pages.push(listHistoryPage(p, { command, ...extra, cursor: Number(pages.at(-1)!.next) }));
  return pages;
}

describe('listHistoryPage', () => {
  const sample = projectHistory(parseTranscriptChunk(readFileSync(SAMPLE_PATH, 'utf8')));

  it('lists the dialogue of the real sample and ends with an end-of-history footer', () => {
    const page = listHistoryPage(sample, { command });
    expect(page.events.map((e) => e.text)).toEqual(expect.arrayContaining(['hello', 'FAIL-TOOL', 'after compact']));
    expect(page.footer).toContain('end of history');
    expect(page.next).toBeNull();
  });

  it('skips empty envelopes even when their role is asked for explicitly', () => {
    const t = new TranscriptBuilder();
    t.user('question');
    t.thinking('hmm');
    t.toolUse('t1', 'Read', { file_path: '/a' });
    t.toolResult('t1', 'data');
    t.assistant('answer');
    const p = project(t);
    expect(listHistoryPage(p, { command, roles: ['assistant'] }).events.map((e) => e.text)).toEqual(['answer']);
    expect(listHistoryPage(p, { command, roles: ['user'] }).events.map((e) => e.text)).toEqual(['question']);
  });

  it.each([
    ['a literal dot', 'a.c', ['a.c here']],
    ['a different case', 'A.C', ['a.c here']],
    ['a regex class', '[ab]', []],
    ['text inside a tool result', 'needle-out', ['']],
  ])('searches %s literally', (_name, query, expected) => {
    const t = new TranscriptBuilder();
    t.user('a.c here');
    t.user('abc there');
    t.toolUse('t1', 'Bash', { command: 'x' });
    t.toolResult('t1', 'needle-out');
    expect(listHistoryPage(project(t), { command, query }).events.map((e) => e.text)).toEqual(expected);
  });

  it('filters by role', () => {
    const t = new TranscriptBuilder();
    t.user('u');
    t.assistant('a');
    t.attachment('date', 'D');
    const p = project(t);
    expect(listHistoryPage(p, { command }).events.map((e) => e.role)).toEqual(['user', 'assistant']);
    expect(listHistoryPage(p, { command, roles: ['attachment'] }).events.map((e) => e.text)).toEqual(['D']);
  });

  it('pages with cursors and page numbers to the same events, none lost or repeated', () => {
    const t = new TranscriptBuilder();
    for (let i = 0; i < 23; i++) t.user(`message ${i}`);
    const p = project(t);
    const pages = allListPages(p, { limit: 5 });
    expect(pages).toHaveLength(5);
    expect(pages.flatMap(seqs)).toEqual(p.events.map((e) => e.seq));
    expect(pages[0]!.footer).toContain(`--cursor ${pages[0]!.next}`);
    expect(seqs(listHistoryPage(p, { command, limit: 5, page: 3 }))).toEqual(seqs(pages[2]!));
  });

  it('keeps every page within 32 KiB, notice included, with whole events only', () => {
    const t = new TranscriptBuilder('s');
    t.user('first', { parentUuid: 'missing-ancestor' });
    for (let i = 0; i < 400; i++) t.user(`event ${i} ${'x'.repeat(300)}`);
    const p = project(t);
    const pages = allListPages(p, { limit: 1000 });
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      expect(bytes(page)).toBeLessThanOrEqual(HISTORY_PAGE_BYTES);
      expect(renderHistoryPage(page).startsWith('[incomplete history]')).toBe(true);
      expect(page.blocks.every((b) => /^#\d+ /.test(b))).toBe(true);
    }
    expect(pages.flatMap(seqs)).toEqual(p.events.map((e) => e.seq));
  });

  it('opens an empty selection and a query error with the notice', () => {
    const t = new TranscriptBuilder('s');
    t.user('only', { parentUuid: 'gone' });
    const p = project(t);
    const empty = listHistoryPage(p, { command, query: 'absent' });
    expect(empty.events).toEqual([]);
    expect(renderHistoryPage(empty)).toMatch(/^\[incomplete history\].*gone/);
    expect(codeOf(() => listHistoryPage(p, { command, query: ' ' }))).toEqual({ code: 'HISTORY_QUERY_EMPTY', data: { notice: expect.stringContaining('gone') } });
  });

  it('refuses a cursor that is not on the branch', () => {
    expect(codeOf(() => listHistoryPage(sample, { command, cursor: 9999 })).code).toBe('HISTORY_UNKNOWN_SEQ');
  });
});

describe('readHistoryPage', () => {
  it('keeps the addresses of empty envelopes and says no visible text was recorded', () => {
    const t = new TranscriptBuilder();
    t.user('q');
    t.thinking('private');
    t.assistant('a');
    const page = readHistoryPage(project(t), { command: 'read', seq: 2 });
    expect(seqs(page)).toEqual([2, 3]);
    expect(page.blocks[0]).toContain('(no visible text recorded)');
    expect(renderHistoryPage(page)).not.toContain('private');
  });

  it("redirects a result's address to its call", () => {
    const t = new TranscriptBuilder();
    t.toolUse('t1', 'Bash', { command: 'ls' });
    t.toolResult('t1', 'file-list');
    const page = readHistoryPage(project(t), { command: 'read', seq: 4, limit: 1 });
    expect(seqs(page)).toEqual([2]);
    expect(page.header).toContain('address 4 is the result of tool call #2');
    expect(page.blocks[0]).toContain('file-list');
  });

  it.each([
    ['an unknown address', 99, 'HISTORY_UNKNOWN_SEQ'],
    ['an address on another branch', 2, 'HISTORY_OFF_BRANCH'],
  ])('refuses %s', (_name, seq, code) => {
    const t = new TranscriptBuilder();
    const root = t.user('root');
    t.assistant('old');
    t.assistant('new', { parentUuid: root.uuid });
    expect(codeOf(() => readHistoryPage(project(t), { command: 'read', seq })).code).toBe(code);
  });

  it('continues an event larger than a page at a character offset, within budget, losing nothing', () => {
    const t = new TranscriptBuilder();
    const huge = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'é'.repeat(20)}`).join('\n');
    t.user('before');
    t.user(huge);
    t.user('after');
    const p = project(t);
    const pages: HistoryPage[] = [readHistoryPage(p, { command: 'read', seq: 2 })];
    while (pages.at(-1)!.next !== null && pages.at(-1)!.next!.includes(':')) {
      const [seq, offset] = pages.at(-1)!.next!.split(':').map(Number);
      pages.push(readHistoryPage(p, { command: 'read', seq: seq!, offset }));
    }
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) expect(bytes(page)).toBeLessThanOrEqual(HISTORY_PAGE_BYTES);
    const text = pages
      .map((page) => page.blocks[0]!.replace(/^\[continued from character \d+\]\n/, '').replace(/\n\[cut at character \d+ of \d+: continues on the next page\]$/, ''))
      .join('');
    expect(text).toContain(huge);
    expect(pages.at(-1)!.events.map((e) => e.text)).toContain('after');
  });
});

describe('renderHistoryPage', () => {
  it.each([700, 1234, 2000, 4096])('fills a page up to exactly the budget of %i bytes, never past it', (budget) => {
    const t = new TranscriptBuilder();
    for (let i = 0; i < 200; i++) t.user(`m${i} ${'y'.repeat(i % 37)}`);
    const p = project(t);
    for (const page of allListPages(p, { limit: 1000, budget })) expect(bytes(page)).toBeLessThanOrEqual(budget);
  });
});
