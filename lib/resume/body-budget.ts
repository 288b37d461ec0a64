import { inert } from '../capsule/inert';
import { errorState, filePath, fileKind } from '../capsule/section-items';
import { SECTION_KEYS, type SectionKey } from '../capsule/types';

/** How a body section's items are picked when the resume fills its budget by value. */
export interface BodyBudget {
  /** Room left for the body section lines, in the limit's unit. */
  room: number;
  /** Measures a text in the limit's unit. */
  measure: (text: string) => number;
  /** Bound on one item as rendered. */
  itemMax: number;
}

/** The items each section shows, newest first within a section, and how many it leaves out. */
export type PickedBody = Record<SectionKey, { items: string[]; hidden: number }>;

// Modified files are listed one per item while they take at most this share of the room left
// after the open errors and the task rows; above it they are listed by folder, every one kept.
const FILES_SHARE = 0.5;
// A folder with fewer modified files than this keeps them as items of their own, even when grouped.
const GROUP_MIN = 3;
// An item the budget cannot show whole is shown this short (the oldest facts, done items) before it is dropped.
const SUMMARY_MAX = 90;
// How many older items of a section keep room to be shown shortened.
const SUMMARISED = 5;
// What a section heading costs, reserved before its items are picked.
const HEADING_COST = 110;
const FOLDED = /^… \d+ earlier items? folded$/;

/**
 * Picks the body items to show by value until the room is used, instead of a fixed count per
 * section: open errors, the task rows and every modified file first (one item per file while
 * they take at most half the room left, else grouped by folder), then Done and the facts newest first (the oldest shortened before they
 * are dropped), rejected approaches, resolved errors, gates, and files only read. Pure.
 */
export function pickBody(sections: Record<SectionKey, string[]>, budget: BodyBudget): PickedBody {
  const picked = Object.fromEntries(SECTION_KEYS.map((k) => [k, { items: [] as string[], hidden: 0 }])) as PickedBody;
  const filled = SECTION_KEYS.filter((k) => sections[k].some((i) => !FOLDED.test(i)));
  let room = budget.room - filled.length * HEADING_COST;
  const cost = (item: string) => budget.measure(`  - ${inert(item, { max: budget.itemMax })}\n`);
  const take = (key: SectionKey, items: readonly string[], shorten: boolean) => {
    for (const [n, item] of items.entries()) {
      const whole = cost(item);
      // Room is kept for a few older items shortened, so they are summarised before any is dropped.
      const older = shorten ? Math.min(items.length - n - 1, SUMMARISED) : 0;
      if (whole + older * (SUMMARY_MAX + 12) <= room) {
        picked[key].items.push(item);
        room -= whole;
        continue;
      }
      const short = shorten && item.length > SUMMARY_MAX ? `${item.slice(0, SUMMARY_MAX - 1)}…` : null;
      if (short !== null && cost(short) <= room) {
        picked[key].items.push(short);
        room -= cost(short);
      } else picked[key].hidden += 1;
    }
  };
  const newest = (key: SectionKey) => sections[key].filter((i) => !FOLDED.test(i)).reverse();
  const errors = newest('errors');
  const files = newest('files');
  const modified = files.filter((i) => fileKind(i) !== 'read');
  take('errors', errors.filter((i) => errorState(i) === 'open'), false);
  take('claimed', sections.claimed.filter((i) => !FOLDED.test(i)), false);
  // One item per file reads best (and keeps each path whole) while it leaves room for the rest.
  const single = modified.reduce((n, i) => n + cost(i), 0);
  take('files', single <= room * FILES_SHARE ? modified : groupByFolder(modified, budget.itemMax), false);
  take('done', newest('done'), true);
  take('facts', newest('facts'), true);
  take('rejected', newest('rejected'), true);
  take('errors', errors.filter((i) => errorState(i) === 'resolved'), true);
  take('gates', newest('gates'), true);
  take('files', files.filter((i) => fileKind(i) === 'read'), false);
  return picked;
}

/**
 * Modified files by folder, newest folder first: `modified: src/cli/ (3 files): a.ts, b.ts, c.ts`
 * (still a `modified:` item), a long folder over several lines of at most `max` characters; a
 * folder with fewer than GROUP_MIN files keeps its items as they are.
 */
function groupByFolder(items: readonly string[], max: number): string[] {
  const byFolder = new Map<string, { items: string[]; names: string[] }>();
  for (const item of items) {
    const path = filePath(item) ?? item;
    const at = path.lastIndexOf('/');
    const folder = at === -1 ? './' : path.slice(0, at + 1);
    const entry = byFolder.get(folder) ?? { items: [], names: [] };
    entry.items.push(item);
    entry.names.push(path.slice(at + 1));
    byFolder.set(folder, entry);
  }
  const out: string[] = [];
  for (const [folder, { items: own, names }] of byFolder) {
    if (names.length < GROUP_MIN) {
      out.push(...own);
      continue;
    }
    let line = `modified: ${folder} (${names.length} files): `;
    let first = true;
    for (const name of names) {
      if (!first && line.length + name.length + 2 > max) {
        out.push(line);
        line = `modified: ${folder} (continued): `;
        first = true;
      }
      line += `${first ? '' : ', '}${name}`;
      first = false;
    }
    out.push(line);
  }
  return out;
}
