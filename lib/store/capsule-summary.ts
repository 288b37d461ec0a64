import { parseCreatedAt, utcSortKey } from '../capsule/created-at';
import { AUTOSAVE_TAG, type Frontmatter } from '../capsule/types';
import { documentIn } from './memory-format';
import { maxStatus } from './status-lattice';
import type { IndexEntry, StatusEvent } from './types';

/**
 * The index entry of a capsule from its frontmatter, its directory and its status events.
 * Tolerant: a capsule that arrived by sync with a bad `created_at` still gets an entry, sorted
 * at the start of the day (format 1: the month) its directory names.
 */
export function summarizeCapsule(fm: Frontmatter, where: { id: string; dir: string }, events: readonly StatusEvent[]): IndexEntry {
  const stamp = parseCreatedAt(fm.created_at);
  const sortKey = stamp.ok ? utcSortKey(stamp.epochMs) : fallbackSortKey(where.dir);
  const entry: IndexEntry = {
    id: where.id,
    status: maxStatus([fm.status, ...events.map((e) => e.status)]),
    createdAt: typeof fm.created_at === 'string' ? fm.created_at : '',
    sortKey,
    path: documentIn(where.dir),
  };
  if (typeof fm.trigger === 'string') entry.trigger = fm.trigger;
  if (typeof fm.objective === 'string') entry.objective = fm.objective;
  if (typeof fm.session_id === 'string') entry.sessionId = fm.session_id;
  if (typeof fm.author === 'string') entry.author = fm.author;
  if (typeof fm.machine === 'string') entry.machine = fm.machine;
  if (typeof fm.worktree === 'string') entry.worktree = fm.worktree;
  if (typeof fm.repo_branch === 'string') entry.branch = fm.repo_branch;
  if (typeof fm.handoff_to === 'string') entry.handoffTo = fm.handoff_to;
  if (Array.isArray(fm.tags) && fm.tags.includes(AUTOSAVE_TAG)) entry.autosaveTag = true;
  return entry;
}

/**
 * The sort key of a capsule whose created_at does not parse: `yyyymmddT000000000Z` of its folder
 * (`capsules/<yyyy-mm-dd>/<id>`; older layouts' `capsules/<yyyy>/<mm>[/<dd>]/<id>`, day 01 for a month folder).
 */
export function fallbackSortKey(dir: string): string {
  const parts = dir.split('/');
  if (parts.length === 3) {
    const [yyyy = '0000', mm = '00', dd = '00'] = (parts[1] ?? '').split('-');
    return `${yyyy}${mm}${dd}T000000000Z`;
  }
  const [, yyyy = '0000', mm = '00', third = '', fourth] = parts;
  const dd = fourth === undefined ? '01' : third;
  return `${yyyy}${mm}${dd}T000000000Z`;
}
