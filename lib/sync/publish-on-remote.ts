import type { StoreObjectReader } from '../git/cat-file-batch';
import type { GitIdentity } from '../git/git-env';
import type { GitRunner } from '../git/git-runner';
import type { LeftOut } from './fsck-paths';
import { mergeListed, type Listings } from './local-moves';
import { fastImportData, laterCommitTime, treeEdits, writeScratchCommit } from './merge-commit';
import type { MergeResolution } from './merge-listings';
import { countLocalCommits, localRange, objectivesOf } from './publish-commit';
import { publishMessage, type PublishSummary } from './publish-message';

/** What publishing the local state on top of a remote that moved took. */
export interface PublishedOnRemote {
  /** The publish commit, or the remote tip itself when it already holds all of the local state. */
  commit: string;
  created: boolean;
  localCommits: number;
  summary: PublishSummary | null;
  resolutions: MergeResolution[];
  /** Entries of either side sync leaves out of the union (see mergeTrees). */
  unsafe: LeftOut[];
}

/**
 * One commit that publishes the local state on a remote that moved too: its tree is the union of
 * the local tip's and the remote tip's (see mergeTrees: status events are all kept, two versions
 * of one document keep the newer), its only parent is the remote tip, and it writes only what
 * differs from the remote's tree, so one sync adds one commit and only the trees it changes. The
 * message names what it adds to the remote (see publishMessage); the committer is the local one,
 * dated like the later of the two tips. Deterministic: the same two tips give the same commit.
 * When the union is the remote's tree (everything local is already there), nothing is written
 * and the remote tip is returned: taking it as it is then loses and believes nothing the merge
 * would not (the check lib/sync/incoming-check.ts makes of a fast-forward). Built on `scratch` (a ref the caller owns and later deletes);
 * the memory ref moves in the caller's transaction. `base` (the newest state both tips reach)
 * only counts the local commits it stands for. Throws SYNC_FORMAT_MISMATCH, GIT_FAILED.
 */
export async function publishOnRemote(
  git: GitRunner,
  batch: StoreObjectReader,
  input: { tip: string; base: string; remote: string; listings: Listings; identity: GitIdentity; scratch: string; sealedHere?: (text: string) => boolean },
): Promise<PublishedOnRemote> {
  const { tip, base, remote, listings, identity, scratch } = input;
  const [merged, commits] = await Promise.all([mergeListed(git, batch, { listings, local: tip, remote, sealedHere: input.sealedHere }), localRange(git, base, tip)]);
  const localCommits = countLocalCommits(commits);
  const { lines, changes } = treeEdits({ listing: listings.theirs, index: merged.sideIndexes[1] }, merged);
  if (lines.length === 0) return { commit: remote, created: false, localCommits, summary: null, resolutions: merged.resolutions, unsafe: merged.unsafe };
  const objectives = await objectivesOf(batch, changes, (path) => merged.files.get(path)?.oid ?? null);
  const { message, summary } = publishMessage({ changes, objectives, localCommits });
  const who = `${identity.name} <${identity.email}> ${await laterCommitTime(git, [tip, remote], batch)} +0000`;
  const stream = `commit ${scratch}\nmark :1\nauthor ${who}\ncommitter ${who}\n${fastImportData(message)}from ${remote}\n${lines.join('')}\nget-mark :1\ndone\n`;
  return { commit: await writeScratchCommit(git, stream, scratch), created: true, localCommits, summary, resolutions: merged.resolutions, unsafe: merged.unsafe };
}
