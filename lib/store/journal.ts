import type { GitRunner } from '../git/git-runner';
import type { JournalEntry } from './types';

const FIELD = '\x1f';
const RECORD = '\x1e';

/** The memory branch journal, newest first: one entry per commit with its trailers. Throws GIT_FAILED. */
export async function readJournal(git: GitRunner, tip: string | null, opts: { limit?: number } = {}): Promise<JournalEntry[]> {
  if (tip === null) return [];
  const args = ['log', '--no-color', `--format=%H${FIELD}%cI${FIELD}%s${FIELD}%(trailers:only,unfold)${RECORD}`];
  if (opts.limit !== undefined) args.push(`--max-count=${opts.limit}`);
  args.push(tip, '--');
  const { stdout } = await git.run(args);
  const entries: JournalEntry[] = [];
  for (const record of stdout.split(RECORD)) {
    const [commit, date, subject, trailerText] = record.replace(/^\n/, '').split(FIELD);
    if (!commit || date === undefined || subject === undefined) continue;
    const trailers: Record<string, string> = {};
    for (const line of (trailerText ?? '').split('\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) trailers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    entries.push({ commit, date, subject, trailers });
  }
  return entries;
}
