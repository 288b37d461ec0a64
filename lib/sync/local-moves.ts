import type { StoreObjectReader } from '../git/cat-file-batch';
import { WRITE_CONFIG } from '../git/git-env';
import type { GitRunner } from '../git/git-runner';
import { canonicalListing } from './canonical-listing';
import { historyRef } from './local-history';
import { buildMergeStream, laterCommitTime, writeMergeCommit } from './merge-commit';
import type { LeftOut } from './fsck-paths';
import type { MergeResolution, TreeFile } from './merge-listings';
import { mergeScope, scopePaths, type MergeScope } from './merge-scope';
import { listTree, mergeTrees, OutOfScope, type MergedTree } from './merge-trees';

/** A move of the local memory ref: where it went, or a lost race (with git's words). */
export type MoveOutcome = { ok: true; after: string; resolutions: MergeResolution[]; unsafe: LeftOut[] } | { ok: false; reason: string };

/**
 * Both tips' listings, with every capsule file where the current layout keeps it (see
 * canonicalListing). With `scope`, only the day folders that differ between the tips (see
 * listForMerge): everything else is the same subtree on both sides.
 */
export type Listings = { ours: Map<string, TreeFile>; theirs: Map<string, TreeFile>; scope?: MergeScope };

/** Both tips' listings (empty for a missing tip; not read at all when the tips are equal). */
export async function listBoth(git: GitRunner, local: string | null, remote: string | null): Promise<Listings> {
  if (local === remote) return { ours: new Map(), theirs: new Map() };
  const [ours, theirs] = await Promise.all([local ? listTree(git, local) : new Map(), remote ? listTree(git, remote) : new Map()]);
  return { ours, theirs };
}

/**
 * Both tips' listings for a merge: only the day folders whose subtrees differ (merge-scope.ts:
 * one diff-tree, then one ls-tree per side limited to those folders), or both trees whole when
 * anything else differs. What a merge reads then grows with what changed since the last sync,
 * not with how many capsules the branch holds.
 */
export async function listForMerge(git: GitRunner, local: string, remote: string): Promise<Listings> {
  const scope = await mergeScope(git, local, remote);
  if (scope === null) return listBoth(git, local, remote);
  const [ours, theirs] = await Promise.all([listScoped(git, local, scope), listScoped(git, remote, scope)]);
  return { ours, theirs, scope };
}

/**
 * mergeTrees over `listings`; when a scoped merge finds a capsule or index line reaching outside
 * its days (OutOfScope), `listings` are read whole again (in place, so the caller writes its
 * tree edits against the same listings) and merged whole.
 */
export async function mergeListed(git: GitRunner, batch: StoreObjectReader, input: { listings: Listings; local: string; remote: string; sealedHere?: (text: string) => boolean }): Promise<MergedTree> {
  const { listings } = input;
  const opts = input.sealedHere ? { sealedHere: input.sealedHere } : {};
  if (listings.scope !== undefined) {
    try {
      return await mergeTrees(batch, listings.ours, listings.theirs, { ...opts, scope: listings.scope });
    } catch (err) {
      if (!(err instanceof OutOfScope)) throw err;
    }
    const whole = await listBoth(git, input.local, input.remote);
    listings.ours = whole.ours;
    listings.theirs = whole.theirs;
    delete listings.scope;
  }
  return mergeTrees(batch, listings.ours, listings.theirs, opts);
}

/** The files of `commit` inside `scope` (one `ls-tree -r` limited to its folders). Throws GIT_FAILED. */
export function listScoped(git: GitRunner, commit: string, scope: MergeScope): Promise<Map<string, TreeFile>> {
  return listTree(git, commit, scopePaths(scope));
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
  // `update` with no old value, not `create`: the name carries the kept commit's id, so a ref of
  // that name already there (a sync in the same second that kept the same tip) keeps that commit.
  if (input.keep && input.from !== null) lines.push(`update ${input.keep} ${input.from}`);
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
  const merged = await mergeListed(git, batch, { listings, local, remote, sealedHere: input.sealedHere });
  const [oursIndex, theirsIndex] = merged.sideIndexes;
  const epochSeconds = await laterCommitTime(git, [local, remote], batch);
  const stream = buildMergeStream({ ref, epochSeconds, merged, parents: [{ commit: local, listing: listings.ours, index: oursIndex }, { commit: remote, listing: listings.theirs, index: theirsIndex }] });
  const outcome = await writeMergeCommit(git, stream);
  return outcome.ok ? { ok: true, after: outcome.commit, resolutions: merged.resolutions, unsafe: merged.unsafe } : outcome;
}

/** The history ref that keeps `replaced`, or null when the local history is not kept (0 days). */
export function keepRef(ref: string, replaced: string, now: Date, days: number): string | null {
  return days > 0 ? historyRef(ref, now, replaced) : null;
}
