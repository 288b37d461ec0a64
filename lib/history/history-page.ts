import { CapsuleError } from '../errors/capsule-error';
import { incompleteHistoryNotice } from './history-notice';
import { eventBody, oneLine } from './history-text';
import type { HistoryEvent, HistoryProjection, HistoryRole } from './history-types';
import { fitPage, type PageText } from './history-budget';

export { HISTORY_PAGE_BYTES, renderHistoryPage } from './history-budget';

const PREVIEW_CHARS = 200;
const NO_TEXT = '(no visible text recorded)';

/** One page of history: what the text shows, and the events it holds for --json. */
export interface HistoryPage extends PageText {
  events: HistoryEvent[];
  /** The cursor for the next page, or null at the end. */
  next: string | null;
  /** When a read page shows only part of an event: which characters of its rendered block. */
  partial: { seq: number; from: number; to: number; of: number } | null;
}

/** Options shared by list and read: the command the footer tells the user to run next. */
export interface PageOptions {
  command: string;
  limit?: number;
  budget?: number;
  /**
   * Gives an event kept without text (a digest) its text again (history-addresses withText over
   * the file); asked only for the events a page shows.
   */
  withText?: (event: HistoryEvent) => HistoryEvent;
}

/** Options for listHistoryPage. */
export interface ListOptions extends PageOptions {
  query?: string;
  roles?: readonly HistoryRole[];
  /** Start after this seq (a footer's cursor). */
  cursor?: number;
  /** 1-based page number, counted from the first page with the same filters. */
  page?: number;
}

/**
 * A page of `history list`: events of the chosen roles whose text holds the literal query
 * (case-insensitive), one line each; empty envelopes (tool-only, thinking-only rows) are skipped.
 * Throws HISTORY_QUERY_EMPTY and HISTORY_UNKNOWN_SEQ (data.notice carries the notice).
 */
export function listHistoryPage(projection: HistoryProjection, options: ListOptions): HistoryPage {
  const notice = incompleteHistoryNotice(projection);
  if (options.query !== undefined && options.query.trim() === '') {
    throw new CapsuleError('HISTORY_QUERY_EMPTY', 'history list: --query is empty; expected literal text to search for.', { notice });
  }
  const needle = options.query?.toLowerCase();
  if (needle !== undefined && projection.query?.toLowerCase() !== needle && projection.events.some((e) => e.digest)) {
    // A digest records the hit of the query the projection was built with, and no other.
    throw new CapsuleError('HISTORY_QUERY_MISMATCH', `history list: the history was read for query ${JSON.stringify(projection.query ?? null)}, not ${JSON.stringify(options.query)}; project it again with this query.`, { notice });
  }
  const roles = new Set(options.roles ?? ['user', 'assistant', 'tool', 'system']);
  const matches = projection.events.filter((e) => {
    if (!roles.has(e.role)) return false;
    if (e.digest) return !e.digest.empty && (needle === undefined || e.digest.hit === true);
    const body = eventBody(e);
    return body.trim() !== '' && (needle === undefined || body.toLowerCase().includes(needle));
  });
  let start = 0;
  if (options.cursor !== undefined) start = positionAfter(projection, matches, options.cursor, notice);
  const header = headerLine(projection, `${matches.length} matching event(s)`);
  const full = fullText(options.withText);
  const lines = new Map<number, string>();
  const list = { count: matches.length, block: (i: number) => remember(lines, i, () => listLine(full(matches[i]!))) };
  const filters = `${options.query === undefined ? '' : ` --query ${JSON.stringify(options.query)}`}${options.roles ? ` --role ${[...roles].join(',')}` : ''}`;
  let page = fitPage({ notice, header, ...list, start, limit: options.limit ?? 50, budget: options.budget, footer: (end) => listFooter(options.command, filters, matches, end) });
  for (let n = 1; n < (options.page ?? 1) && page.end < matches.length; n++) {
    page = fitPage({ notice, header, ...list, start: page.end, limit: options.limit ?? 50, budget: options.budget, footer: (end) => listFooter(options.command, filters, matches, end) });
  }
  const shown = matches.slice(page.start, page.end).map(full);
  const next = page.end < matches.length ? String(matches[page.end - 1]?.seq ?? matches[0]!.seq - 1) : null;
  return { notice, header, blocks: page.blocks, footer: page.footer, events: shown, next, partial: null };
}

/** Options for readHistoryPage. */
export interface ReadOptions extends PageOptions {
  seq: number;
  /** Character offset into the first event's text (a footer's `seq:offset` cursor). */
  offset?: number;
}

/**
 * A page of `history read`: events on the branch from the given address (a result's address
 * redirects to its call), in full, empty envelopes included and marked. An event longer than a
 * page continues on the next page at a character offset, never cut without saying so.
 * Throws HISTORY_UNKNOWN_SEQ and HISTORY_OFF_BRANCH (data.notice carries the notice).
 */
export function readHistoryPage(projection: HistoryProjection, options: ReadOptions): HistoryPage {
  const notice = incompleteHistoryNotice(projection);
  const seq = projection.redirects.get(options.seq) ?? options.seq;
  if (!projection.addresses.has(seq)) {
    throw new CapsuleError('HISTORY_UNKNOWN_SEQ', `history read: no event has address ${options.seq}; expected a seq from 'git capsule history list'.`, { seq: options.seq, notice });
  }
  const index = projection.events.findIndex((e) => e.seq === seq);
  if (index === -1) {
    throw new CapsuleError('HISTORY_OFF_BRANCH', `history read: address ${options.seq} is not on the selected branch (leaf ${projection.leaf}); pass --leaf to read another branch.`, { seq: options.seq, leaf: projection.leaf, notice });
  }
  const events = projection.events;
  const redirected = seq !== options.seq ? ` (address ${options.seq} is the result of tool call #${seq})` : '';
  const header = headerLine(projection, `reading from #${seq}${redirected}`);
  // Blocks are built only as far as the page fills: an event kept without text is read again here.
  const full = fullText(options.withText);
  const eventAt = (i: number) => full(events[i]!);
  const blocks = new Map<number, string>();
  const blockAt = (i: number) => remember(blocks, i, () => readBlock(eventAt(i)));
  const page = fitPage({
    notice,
    header,
    count: events.length,
    block: blockAt,
    start: index,
    offset: options.offset ?? 0,
    limit: options.limit ?? 20,
    budget: options.budget,
    footer: (end, cut) => readFooter(options.command, events, end, cut),
  });
  const next = page.cut !== undefined ? `${events[page.end]!.seq}:${page.cut}` : page.end < events.length ? String(events[page.end]!.seq) : null;
  const offset = options.offset ?? 0;
  const partial =
    page.cut !== undefined
      ? { seq: events[page.end]!.seq, from: offset, to: page.cut, of: blockAt(page.end).length }
      : offset > 0
        ? { seq, from: offset, to: blockAt(index).length, of: blockAt(index).length }
        : null;
  const shown: HistoryEvent[] = [];
  for (let i = index; i < (page.cut !== undefined ? page.end + 1 : page.end); i++) shown.push(eventAt(i));
  return { notice, header, blocks: page.blocks, footer: page.footer, events: shown, next, partial };
}

function positionAfter(projection: HistoryProjection, matches: HistoryEvent[], cursor: number, notice: string | null): number {
  const seq = projection.redirects.get(cursor) ?? cursor;
  const branchIndex = projection.events.findIndex((e) => e.seq === seq);
  if (branchIndex === -1) {
    throw new CapsuleError('HISTORY_UNKNOWN_SEQ', `history list: cursor ${cursor} is not an address on the selected branch; expected the cursor a page footer gave.`, { seq: cursor, notice });
  }
  const order = new Map(projection.events.map((e, i) => [e.seq, i]));
  const after = matches.findIndex((e) => order.get(e.seq)! > branchIndex);
  return after === -1 ? matches.length : after;
}

function headerLine(projection: HistoryProjection, what: string): string {
  const oversize = projection.oversizeLines.length > 0 ? ` · ${projection.oversizeLines.length} line(s) over the line cap read without their content` : '';
  return `history of session ${projection.sessionId} · leaf ${projection.leaf} · ${projection.events.length} event(s) on the branch · windows: ${projection.windows.join(', ') || 'none'}${oversize} · ${what}`;
}

function listLine(e: HistoryEvent): string {
  const label = e.tool ? `tool ${e.tool.name}${e.tool.status === 'ok' ? '' : ` [${e.tool.status}]`}` : [e.role, ...e.tags].join(' ');
  return `#${e.seq} ${label} · ${e.window ?? '?'} · ${e.timestamp ?? '-'} · ${oneLine(eventBody(e), PREVIEW_CHARS)}`;
}

// Events with their text, each read again at most once per page.
function fullText(withText: PageOptions['withText']): (e: HistoryEvent) => HistoryEvent {
  const done = new Map<number, HistoryEvent>();
  return (e) => (e.digest && withText ? remember(done, e.seq, () => withText(e)) : e);
}

function remember<T>(cache: Map<number, T>, key: number, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) cache.set(key, (value = make()));
  return value;
}

function readBlock(e: HistoryEvent): string {
  const label = e.tool ? `tool ${e.tool.name} [${e.tool.status}]${e.tool.resultSeq !== undefined ? ` result #${e.tool.resultSeq}` : ''}` : [e.role, ...e.tags].join(' ');
  const body = eventBody(e);
  return `── #${e.seq} ${label} · ${e.window ?? '?'} · ${e.timestamp ?? '-'} · line ${e.line} · uuid ${e.uuid}\n${body.trim() === '' ? NO_TEXT : body}`;
}

function listFooter(command: string, filters: string, matches: HistoryEvent[], end: number): string {
  if (end >= matches.length) return `— end of history (${matches.length} matching event(s))`;
  return `— ${matches.length - end} more: ${command} --cursor ${matches[end - 1]?.seq ?? 0}${filters}`;
}

function readFooter(command: string, events: HistoryEvent[], end: number, cut?: number): string {
  if (cut !== undefined) return `— event #${events[end]!.seq} continues: ${command} ${events[end]!.seq}:${cut}`;
  if (end >= events.length) return '— end of the branch';
  return `— next: ${command} ${events[end]!.seq}`;
}
