import { commitLine } from '../store/commit-message';
import { ANY_LAYOUT_DOCUMENT, ANY_LAYOUT_EVENT, ANY_LAYOUT_TOMBSTONE } from '../store/layout-paths';

/** One changed path between the published state and the local tip (`git diff-tree --name-status`). */
export interface TreeChange {
  status: string;
  path: string;
}

/** What a publish commit says it publishes, for `git log` of the published ref. */
export interface PublishSummary {
  capsules: number;
  events: number;
  retired: number;
  /** The capsule ids it touches, in path order. */
  ids: string[];
}

/** At most this many operation lines; the rest are counted. */
const MAX_LINES = 40;

/**
 * The message of a publish commit: the state it carries, one line per operation (a capsule
 * written or updated, with its objective; a status it reached; a capsule retired), and
 * trailers `Capsule-Op: publish`, `Capsule-Local-Commits` (the local commits it stands for) and
 * `Capsule-Ids`. Built from the tree difference only, so the same state always says the same.
 */
export function publishMessage(input: { changes: readonly TreeChange[]; objectives: ReadonlyMap<string, string>; localCommits: number }): { message: string; summary: PublishSummary } {
  const lines: string[] = [];
  const ids = new Set<string>();
  const summary: PublishSummary = { capsules: 0, events: 0, retired: 0, ids: [] };
  for (const { status, path } of [...input.changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const doc = ANY_LAYOUT_DOCUMENT.exec(path);
    const event = ANY_LAYOUT_EVENT.exec(path);
    const retired = ANY_LAYOUT_TOMBSTONE.exec(path);
    if (doc && (status === 'A' || status === 'M')) {
      summary.capsules += 1;
      ids.add(doc[1]!);
      const about = commitLine(input.objectives.get(doc[1]!) ?? '');
      lines.push(`${status === 'A' ? 'write' : 'update'} ${doc[1]}${about ? `: ${about.length > 72 ? `${about.slice(0, 72)}…` : about}` : ''}`);
    } else if (event && status === 'A') {
      summary.events += 1;
      ids.add(event[1]!);
      lines.push(`status ${event[1]} -> ${event[2]}`);
    } else if (retired && status === 'A') {
      summary.retired += 1;
      lines.push(`retire ${retired[1]}`);
    } else if (path === 'FORMAT' && status !== 'D') {
      lines.push('layout: FORMAT rewritten');
    }
  }
  summary.ids = [...ids];
  const parts = [plural(summary.capsules, 'capsule'), plural(summary.events, 'status event')];
  if (summary.retired > 0) parts.push(`${summary.retired} retired`);
  const subject = `publish: ${parts.join(', ')} (${plural(input.localCommits, 'local commit')})`;
  const shown = lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} more`] : lines;
  const trailers = [`Capsule-Op: publish`, `Capsule-Local-Commits: ${input.localCommits}`, `Capsule-Ids: ${summary.ids.slice(0, 30).join(' ') || 'none'}${summary.ids.length > 30 ? ' …' : ''}`];
  return { message: `${subject}\n\n${shown.length > 0 ? `${shown.join('\n')}\n\n` : ''}${trailers.join('\n')}\n`, summary };
}

/** Parses `git diff-tree -r -z --no-renames --name-status` output. */
export function parseTreeChanges(diffTreeZ: string): TreeChange[] {
  const fields = diffTreeZ.split('\0');
  const out: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] && fields[i + 1]) out.push({ status: fields[i]!, path: fields[i + 1]! });
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
