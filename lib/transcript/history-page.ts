import { CapsuleError } from '../errors/capsule-error';
import { incompleteHistoryNotice } from './history-notice';
import { eventBody, oneLine } from './history-text';
import type { HistoryEvent, HistoryProjection, HistoryRole } from './history-types';

/** The most a history page may take, notice and footer included (seed 002: 32 KiB). */
export const HISTORY_PAGE_BYTES = 32 * 1024;
const PREVIEW_CHARS = 200;
const NO_TEXT = '(no visible text recorded)';

/** One page of history: what the text shows, and the events it holds for --json. */
export interface HistoryPage {
  notice: string | null;
  header: string;
  blocks: string[];
  footer: string;
  events: HistoryEvent[];
  /** The cursor for the next page, or null at the end. */
  next: string | null;
}

/** Options shared by list and read: the command the footer tells the user to run next. */
export interface PageOptions {
  command: string;
  limit?: number;
  budget?: number;
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
  const roles = new Set(options.roles ?? ['user', 'assistant', 'tool', 'system']);
  const matches = projection.events.filter((e) => {
    const body = eventBody(e);
    return roles.has(e.role) && body.trim() !== '' && (needle === undefined || body.toLowerCase().includes(needle));
  });
  let start = 0;
  if (options.cursor !== undefined) start = positionAfter(projection, matches, options.cursor, notice);
  const header = headerLine(projection, `${matches.length} matching event(s)`);
  const blocks = matches.map(listLine);
  const filters = `${options.query === undefined ? '' : ` --query ${JSON.stringify(options.query)}`}${options.roles ? ` --role ${[...roles].join(',')}` : ''}`;
  let page = fitPage({ notice, header, blocks, start, limit: options.limit ?? 50, budget: options.budget, footer: (end) => listFooter(options.command, filters, matches, end) });
  for (let n = 1; n < (options.page ?? 1) && page.end < matches.length; n++) {
    page = fitPage({ notice, header, blocks, start: page.end, limit: options.limit ?? 50, budget: options.budget, footer: (end) => listFooter(options.command, filters, matches, end) });
  }
  const shown = matches.slice(page.start, page.end);
  const next = page.end < matches.length ? String(matches[page.end - 1]?.seq ?? matches[0]!.seq - 1) : null;
  return { notice, header, blocks: page.blocks, footer: page.footer, events: shown, next };
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
  const blocks = events.map((e) => readBlock(e));
  const page = fitPage({
    notice,
    header,
    blocks,
    start: index,
    offset: options.offset ?? 0,
    limit: options.limit ?? 20,
    budget: options.budget,
    footer: (end, cut) => readFooter(options.command, events, end, cut),
  });
  const next = page.cut !== undefined ? `${events[page.end]!.seq}:${page.cut}` : page.end < events.length ? String(events[page.end]!.seq) : null;
  return { notice, header, blocks: page.blocks, footer: page.footer, events: events.slice(index, page.cut !== undefined ? page.end + 1 : page.end), next };
}

/** The page as delivered: the same text the budget was checked against. */
export function renderHistoryPage(page: Pick<HistoryPage, 'notice' | 'header' | 'blocks' | 'footer'>): string {
  return [...(page.notice === null ? [] : [page.notice, '']), page.header, ...page.blocks, page.footer].join('\n') + '\n';
}

interface Fit {
  start: number;
  end: number;
  blocks: string[];
  footer: string;
  /** Set when the event at `end` was cut: the character offset to continue from. */
  cut?: number;
}

// Whole blocks while they fit with the footer; when not even the first fits, a slice of it
// with a marker, so one huge event still pages instead of failing.
function fitPage(input: {
  notice: string | null;
  header: string;
  blocks: string[];
  start: number;
  offset?: number;
  limit: number;
  budget?: number;
  footer: (end: number, cut?: number) => string;
}): Fit {
  const budget = input.budget ?? HISTORY_PAGE_BYTES;
  const size = (parts: string[], footer: string) => Buffer.byteLength(renderHistoryPage({ notice: input.notice, header: input.header, blocks: parts, footer }));
  const taken: string[] = [];
  let end = input.start;
  const offset = input.offset ?? 0;
  // renderHistoryPage joins parts with newlines: each block adds its bytes plus one.
  let used = size([], '');
  while (end < input.blocks.length && taken.length < input.limit) {
    const block = end === input.start && offset > 0 ? continued(input.blocks[end]!, offset) : input.blocks[end]!;
    const grown = used + Buffer.byteLength(block) + 1;
    if (grown + Buffer.byteLength(input.footer(end + 1)) > budget) break;
    taken.push(block);
    used = grown;
    end++;
  }
  if (taken.length > 0 || end >= input.blocks.length) return { start: input.start, end, blocks: taken, footer: input.footer(end) };
  const whole = input.blocks[end]!;
  let lo = offset + 1;
  let hi = whole.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (size([slice(whole, offset, mid)], input.footer(end, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  const cut = safeCut(whole, lo);
  return { start: input.start, end, blocks: [slice(whole, offset, cut)], footer: input.footer(end, cut), cut };
}

function continued(block: string, offset: number): string {
  return `[continued from character ${offset}]\n${block.slice(offset)}`;
}

function slice(block: string, from: number, to: number): string {
  const head = from > 0 ? `[continued from character ${from}]\n` : '';
  return `${head}${block.slice(from, to)}\n[cut at character ${to} of ${block.length}: continues on the next page]`;
}

// Never split a surrogate pair.
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
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
  return `history of session ${projection.sessionId} · leaf ${projection.leaf} · ${projection.events.length} event(s) on the branch · windows: ${projection.windows.join(', ') || 'none'} · ${what}`;
}

function listLine(e: HistoryEvent): string {
  const label = e.tool ? `tool ${e.tool.name}${e.tool.status === 'ok' ? '' : ` [${e.tool.status}]`}` : [e.role, ...e.tags].join(' ');
  return `#${e.seq} ${label} · ${e.window ?? '?'} · ${e.timestamp ?? '-'} · ${oneLine(eventBody(e), PREVIEW_CHARS)}`;
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
