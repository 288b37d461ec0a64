/** The most a history page may take, notice and footer included (32 KiB: a page the agent reads must leave most of its context free; docs/cli.md "history read"). */
export const HISTORY_PAGE_BYTES = 32 * 1024;

/** The text parts of a page, top to bottom. */
export interface PageText {
  notice: string | null;
  header: string;
  blocks: string[];
  footer: string;
}

/** The page as delivered: the same text the budget was checked against. */
export function renderHistoryPage(page: PageText): string {
  return [...(page.notice === null ? [] : [page.notice, '']), page.header, ...page.blocks, page.footer].join('\n') + '\n';
}

/** Which blocks a page holds, its footer, and where a cut event continues. */
export interface Fit {
  start: number;
  end: number;
  blocks: string[];
  footer: string;
  /** Set when the event at `end` was cut: the character offset to continue from. */
  cut?: number;
}

/**
 * Fills a page from `start` with whole blocks while they fit the budget together with the
 * notice, header and the footer that page would get; when not even the first block fits, a
 * marked slice of it, so one huge event still pages instead of failing. Checks the same text
 * renderHistoryPage delivers.
 */
export function fitPage(input: {
  notice: string | null;
  header: string;
  /** How many blocks there are, and block i (asked for only as far as the page fills). */
  count: number;
  block: (index: number) => string;
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
  while (end < input.count && taken.length < input.limit) {
    const block = end === input.start && offset > 0 ? continued(input.block(end), offset) : input.block(end);
    const grown = used + Buffer.byteLength(block) + 1;
    if (grown + Buffer.byteLength(input.footer(end + 1)) > budget) break;
    taken.push(block);
    used = grown;
    end++;
  }
  if (taken.length > 0 || end >= input.count) return { start: input.start, end, blocks: taken, footer: input.footer(end) };
  const whole = input.block(end);
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

