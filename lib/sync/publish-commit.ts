import { parseFrontmatterYaml, splitFrontmatter } from '../capsule/frontmatter';
import type { StoreObjectReader } from '../git/cat-file-batch';
import { WRITE_CONFIG, type GitIdentity } from '../git/git-env';
import type { GitRunner } from '../git/git-runner';
import { parseTreeChanges, publishMessage, type PublishSummary, type TreeChange } from './publish-message';

/** What publishing the local tip took: the commit that carries its state, and whether it is new. */
export interface Published {
  commit: string;
  /** False when the tip itself is the one commit on top of the base (it is published as it is). */
  created: boolean;
  /** The local commits it stands for (a publish commit among them counts for what it stood for). */
  localCommits: number;
  summary: PublishSummary | null;
}

const FIELD = '\x1f';

/**
 * The one commit that publishes the local tip's state on top of `base` (the newest state the
 * remote already holds): the tip's tree, `base` as its only parent, the local committer, the
 * tip's committer time and a message naming each operation (see publishMessage). Deterministic:
 * the same tip and base give the same commit, so a sync killed after pushing and run again
 * finds its commit already on the remote. The per-turn commits between base and tip are not
 * its ancestors, so a push of it sends none of them. When the tip is already one plain commit
 * on top of `base`, it is published as it is. `diff`, when given, is `git diff-tree -r -z
 * --no-renames --name-status base tip` already taken. Throws GIT_FAILED.
 */
export async function publishCommit(git: GitRunner, batch: StoreObjectReader, input: { tip: string; base: string; identity: GitIdentity; diff?: string; sign?: boolean }): Promise<Published> {
  const { tip, base, identity } = input;
  // Both at once: the commits it stands for, and what it changes (unless the caller already diffed base and tip).
  const [commits, diff] = await Promise.all([
    localRange(git, base, tip),
    input.diff !== undefined ? { stdout: input.diff } : git.run(['diff-tree', '-r', '-z', '--no-renames', '--name-status', base, tip]),
  ]);
  if (commits.length === 0) return { commit: tip, created: false, localCommits: 0, summary: null };
  const localCommits = countLocalCommits(commits);
  // A signed publish is always a new commit: the local one was written unsigned (fast-import never signs).
  if (input.sign !== true && commits.length === 1 && commits[0]!.parents.length === 1 && commits[0]!.parents[0] === base) {
    return { commit: tip, created: false, localCommits, summary: null };
  }
  const changes = parseTreeChanges(diff.stdout);
  const objectives = await objectivesOf(batch, changes, (path) => `${tip}:${path}`);
  const { message, summary } = publishMessage({ changes, objectives, localCommits });
  const when = `${commits.find((c) => c.oid === tip)?.time ?? 0} +0000`;
  // -S overrides WRITE_CONFIG's commit.gpgSign=false: git signs with the user's configured key and format.
  const out = await git.run([...WRITE_CONFIG, 'commit-tree', ...(input.sign === true ? ['-S'] : []), `${tip}^{tree}`, '-p', base, '-F', '-'], {
    input: message,
    env: { GIT_AUTHOR_NAME: identity.name, GIT_AUTHOR_EMAIL: identity.email, GIT_AUTHOR_DATE: when, GIT_COMMITTER_NAME: identity.name, GIT_COMMITTER_EMAIL: identity.email, GIT_COMMITTER_DATE: when },
  });
  return { commit: out.stdout.trim(), created: true, localCommits, summary };
}

/** One local commit a publish stands for. */
export interface LocalCommit {
  oid: string;
  parents: string[];
  time: number;
  op: string;
  folded: number;
}

/** The commits of `base..tip`, newest first, with the trailers that say what each stood for. Throws GIT_FAILED. */
export async function localRange(git: GitRunner, base: string, tip: string): Promise<LocalCommit[]> {
  const log = await git.run(['log', `--format=%H${FIELD}%P${FIELD}%ct${FIELD}%(trailers:key=Capsule-Op,valueonly,separator=%x2c)${FIELD}%(trailers:key=Capsule-Local-Commits,valueonly,separator=%x2c)`, `${base}..${tip}`, '--']);
  return log.stdout.split('\n').filter(Boolean).map((line) => {
    const [oid = '', parents = '', time = '0', op = '', folded = ''] = line.split(FIELD);
    return { oid, parents: parents.split(' ').filter(Boolean), time: Number(time), op: op.trim(), folded: Number(folded) };
  });
}

/** The turns a range stands for: a merge counts for nothing, an earlier publish for what it stood for. */
export function countLocalCommits(commits: readonly LocalCommit[]): number {
  return commits.reduce((n, c) => n + (c.op === 'merge' ? 0 : c.op === 'publish' && Number.isInteger(c.folded) && c.folded > 0 ? c.folded : 1), 0);
}

/** The objective of each written or updated capsule among `changes` (at most 60 read), by id. */
export async function objectivesOf(batch: StoreObjectReader, changes: readonly TreeChange[], spec: (path: string) => string | null): Promise<Map<string, string>> {
  const docs = changes.filter((c) => c.status !== 'D' && c.path.endsWith('/capsule.md')).slice(0, 60);
  const texts = await Promise.all(docs.map((c) => { const s = spec(c.path); return s === null ? null : batch.readText(s); }));
  const objectives = new Map<string, string>();
  docs.forEach((c, i) => {
    const objective = objectiveOf(texts[i] ?? null);
    if (objective !== null) objectives.set(c.path.split('/').slice(-2)[0]!, objective);
  });
  return objectives;
}

function objectiveOf(text: string | null): string | null {
  if (text === null) return null;
  const { yaml } = splitFrontmatter(text);
  const fm = yaml === null ? null : parseFrontmatterYaml(yaml).frontmatter;
  return fm && typeof fm.objective === 'string' ? fm.objective : null;
}
