import { checkContentGate } from '../capsule/content-gate';
import { clipText } from './work-event-text';
import type { WorkEvent } from './work-event-types';

/** The tags around the state block PreCompact asks the summariser to end its summary with. */
export const STATE_BLOCK_OPEN = '<capsule-state>';
export const STATE_BLOCK_CLOSE = '</capsule-state>';

/** The request PreCompact prints (the host appends it to the compaction prompt). */
export const STATE_BLOCK_REQUEST = [
  'End the summary with this block, one line per field, each under 200 characters, no secrets or credentials; write "unknown" where you do not know:',
  STATE_BLOCK_OPEN,
  'objective: <the task being worked on now>',
  'waiting_on: <what the work waits on: an answer from the user, a CI run, a review; or nothing>',
  'next_valid_action: <the first concrete step to take next>',
  'done: <what is finished, separated by ";">',
  'decisions: <choices made that must not be revisited, separated by ";">',
  STATE_BLOCK_CLOSE,
].join('\n');

// A block longer than this is not the short block asked for: only its start is read.
const MAX_BLOCK_CHARS = 4000;
const MAX_LIST_ITEMS = 8;
const FIELDS = { objective: 'objective', waiting_on: 'waiting_on', next_valid_action: 'next_valid_action' } as const;

/**
 * Reads the state block back from a compaction summary (PostCompact's `compact_summary`) as work
 * events: the three contract fields, what is done, the decisions. The last block wins; values
 * are one line, bounded; "unknown" and empty values are skipped, and a value the content gate
 * refuses (harness text as the objective, ceremony as the next action) is dropped, never
 * committed. No block, no events. Linear in the summary.
 *
 * @example readSummaryState('…<capsule-state>\nobjective: ship v2\n</capsule-state>') // [{ kind: 'summary-field', field: 'objective', text: 'ship v2' }]
 */
export function readSummaryState(summary: string): WorkEvent[] {
  const open = summary.lastIndexOf(STATE_BLOCK_OPEN);
  if (open === -1) return [];
  const start = open + STATE_BLOCK_OPEN.length;
  const close = summary.indexOf(STATE_BLOCK_CLOSE, start);
  const block = summary.slice(start, close === -1 ? start + MAX_BLOCK_CHARS : Math.min(close, start + MAX_BLOCK_CHARS));
  const events: WorkEvent[] = [];
  for (const line of block.split('\n')) {
    const m = /^\s*[-*]?\s*([a-z_]+)\s*:\s*(.*)$/i.exec(line.slice(0, 1000));
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = unquote(m[2]!);
    if (value === '' || /^(?:unknown|n\/a|none known)\.?$/i.test(value)) continue;
    if (key in FIELDS) {
      const field = FIELDS[key as keyof typeof FIELDS];
      if (checkContentGate({ [field]: value }).length === 0) events.push({ kind: 'summary-field', field, text: clipText(value) });
    } else if (key === 'done') {
      for (const item of list(value)) events.push({ kind: 'done', text: `summary: ${item}` });
    } else if (key === 'decisions' || key === 'decision') {
      for (const item of list(value)) events.push({ kind: 'decision', text: item });
    }
  }
  return events;
}

function list(value: string): string[] {
  return value
    .split(';')
    .map((s) => clipText(s.trim(), 200))
    .filter((s) => s !== '' && !/^(?:none|nothing|unknown)$/i.test(s))
    .slice(0, MAX_LIST_ITEMS);
}

function unquote(value: string): string {
  const v = value.trim();
  return /^(["'`]).*\1$/.test(v) && v.length >= 2 ? v.slice(1, -1).trim() : v;
}
