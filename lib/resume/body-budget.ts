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

// Above this many modified files, they are listed by folder: every one is kept.
const GROUP_FILES_OVER = 15;
// An item the budget cannot show whole is shown this short (the oldest facts, done items) before it is dropped.
const SUMMARY_MAX = 90;
// How many older items of a section keep room to be shown shortened.
const SUMMARISED = 5;
// What a section heading costs, reserved before its items are picked.
const HEADING_COST = 110;
const FOLDED = /^… \d+ earlier items? folded$/;

/**
 * Picks the body items to show by value until the room is used, instead of a fixed count per
 * section: open errors, the task rows and every modified file first (the files grouped by folder
 * when there are many), then Done and the facts newest first (the oldest shortened before they
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
  take('files', modified.length > GROUP_FILES_OVER ? groupByFolder(modified, budget.itemMax) : modified, false);
  take('done', newest('done'), true);
  take('facts', newest('facts'), true);
  take('rejected', newest('rejected'), true);
  take('errors', errors.filter((i) => errorState(i) === 'resolved'), true);
  take('gates', newest('gates'), true);
  take('files', files.filter((i) => fileKind(i) === 'read'), false);
  return picked;
}

/** Modified files by folder, newest folder first: `modified in src/cli/ (3): a.ts, b.ts, c.ts`, a long folder over several lines of at most `max` characters. */
function groupByFolder(items: readonly string[], max: number): string[] {
  const byFolder = new Map<string, string[]>();
  for (const item of items) {
    const path = filePath(item) ?? item;
    const at = path.lastIndexOf('/');
    const folder = at === -1 ? './' : path.slice(0, at + 1);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), path.slice(at + 1)]);
  }
  const out: string[] = [];
  for (const [folder, names] of byFolder) {
    let line = `modified in ${folder} (${names.length}): `;
    let first = true;
    for (const name of names) {
      if (!first && line.length + name.length + 2 > max) {
        out.push(line);
        line = `modified in ${folder} (more): `;
        first = true;
      }
      line += `${first ? '' : ', '}${name}`;
      first = false;
    }
    out.push(line);
  }
  return out;
}
