import type { StoreObjectReader } from '../git/cat-file-batch';
import { WRITE_CONFIG } from '../git/git-env';
import type { GitRunner } from '../git/git-runner';
import { canonicalListing } from './canonical-listing';
import { historyRef } from './local-history';
import { buildMergeStream, laterCommitTime, writeMergeCommit } from './merge-commit';
import type { LeftOut } from './fsck-paths';
import type { MergeResolution, TreeFile } from './merge-listings';
import { listTree, mergeTrees } from './merge-trees';

/** A move of the local memory ref: where it went, or a lost race (with git's words). */
export type MoveOutcome = { ok: true; after: string; resolutions: MergeResolution[]; unsafe: LeftOut[] } | { ok: false; reason: string };

/** Both tips' listings, with every capsule file where the current layout keeps it (see canonicalListing). */
export type Listings = { ours: Map<string, TreeFile>; theirs: Map<string, TreeFile> };

/** Both tips' listings (empty for a missing tip; not read at all when the tips are equal). */
export async function listBoth(git: GitRunner, local: string | null, remote: string | null): Promise<Listings> {
  if (local === remote) return { ours: new Map(), theirs: new Map() };
  const [ours, theirs] = await Promise.all([local ? listTree(git, local) : new Map(), remote ? listTree(git, remote) : new Map()]);
  return { ours, theirs };
}

/** The listings as the counts see them: layout differences are not changes. */
export function canonicalBoth(l: Listings): Listings {
  return { ours: canonicalListing(l.ours).files, theirs: canonicalListing(l.theirs).files };
}

/**
 * Moves `ref` from `from` (null: it must not exist yet) to `to` in one ref transaction: a
 * compare-and-swap, so a hook's write that landed meanwhile is never lost (`{ ok: false }`:
 * start over from the new tip). In the same transaction it can keep the replaced tip under a
 * local history ref and delete refs that served their turn (a scratch ref, expired history).
 */
export async function moveRef(git: GitRunner, input: { ref: string; to: string; from: string | null; keep?: string | null; drop?: readonly string[] }): Promise<{ ok: true } | { ok: false; reason: string }> {
  const lines = [input.from === null ? `create ${input.ref} ${input.to}` : `update ${input.ref} ${input.to} ${input.from}`];
  if (input.keep && input.from !== null) lines.push(`create ${input.keep} ${input.from}`);
  for (const drop of input.drop ?? []) lines.push(`delete ${drop}`);
  const out = await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule sync', '--stdin'], { input: `${lines.join('\n')}\n`, okExitCodes: [128] });
  return out.exitCode === 0 ? { ok: true } : { ok: false, reason: out.stderr };
}

/**
 * The deterministic union merge of `local` and `remote` written onto `ref` itself (fast-import's
 * own compare-and-swap): what `--no-push` syncs and the absorption of a legacy remote branch do.
 * Nothing of it is pushed as it is: a later publish carries its state in one commit.
 */
export async function mergeIntoRef(git: GitRunner, batch: StoreObjectReader, input: { ref: string; local: string; remote: string; listings: Listings; sealedHere?: (text: string) => boolean }): Promise<MoveOutcome> {
  const { ref, local, remote, listings } = input;
  const merged = await mergeTrees(batch, listings.ours, listings.theirs, { sealedHere: input.sealedHere });
  const [oursIndex, theirsIndex] = merged.sideIndexes;
  const epochSeconds = await laterCommitTime(git, [local, remote]);
  const stream = buildMergeStream({ ref, epochSeconds, merged, parents: [{ commit: local, listing: listings.ours, index: oursIndex }, { commit: remote, listing: listings.theirs, index: theirsIndex }] });
  const outcome = await writeMergeCommit(git, stream);
  return outcome.ok ? { ok: true, after: outcome.commit, resolutions: merged.resolutions, unsafe: merged.unsafe } : outcome;
}

/** The history ref that keeps `replaced`, or null when the local history is not kept (0 days). */
export function keepRef(ref: string, replaced: string, now: Date, days: number): string | null {
  return days > 0 ? historyRef(ref, now, replaced) : null;
}
