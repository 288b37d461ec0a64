import { CapsuleError, isCapsuleError } from '../errors/capsule-error';
import { CatFileBatch } from '../git/cat-file-batch';
import { WRITE_CONFIG } from '../git/git-env';
import { createGitRunner, type GitRunner } from '../git/git-runner';
import { FORMAT_MAGIC, FORMAT_PATH } from '../store/memory-format';
import { openStore } from '../store/open-store';
import { buildMergeStream, laterCommitTime, writeMergeCommit } from './merge-commit';
import { countDiff, countMoves, type SyncCounts } from './move-counts';
import type { MergeResolution, TreeFile } from './merge-listings';
import { refuseCheckedOut } from '../git/checked-out';
import { clearStaleRefLock, lockNamedIn, STALE_REF_LOCK_MS, waitOutRefLock } from '../git/stale-ref-lock';
import { fetchMemoryRef, lsRemote, pushMemoryRef, resolveSyncRemote, trackingRef } from './remote';
import { listTree, MEMORY_LAYOUT, mergeTrees, type MergedTree } from './merge-trees';
import { refusalsOf, type SyncRefusal } from './incoming-check';

/** What one sync decided for the two tips. */
export type SyncAction = 'up-to-date' | 'nothing' | 'push' | 'fast-forward' | 'merge';

/** Options of `syncMemory`. */
export interface SyncOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Remote name or URL; default: the current branch's upstream remote, else `origin`. */
  remote?: string;
  /** Fetch objects and report what would move; no ref moves, locally or remotely. */
  dryRun?: boolean;
  /** False: fetch and merge only (the post-merge hook). */
  push?: boolean;
  /** Rounds of fetch-merge-push before giving up on a racing remote; default 5. */
  maxAttempts?: number;
  /** One line per step (the CLI prints them on a terminal). */
  progress?: (line: string) => void;
  /** Waits between rounds; tests pass a fast one. */
  sleep?: (ms: number) => Promise<void>;
}

/** What a sync did (or, on a dry run, would do). */
export interface SyncReport {
  remote: string;
  ref: string;
  trackingRef: string;
  action: SyncAction;
  dryRun: boolean;
  local: { before: string | null; after: string | null };
  remoteTip: { before: string | null; after: string | null };
  pushed: boolean;
  attempts: number;
  /** What the remote brings in and what this clone sends out. */
  incoming: SyncCounts;
  outgoing: SyncCounts;
  resolutions: MergeResolution[];
  /** What was not taken from the remote as it is (kept, rebuilt or left out instead); empty when everything was. */
  refused: SyncRefusal[];
}

const BACKOFF_MS = 200;

/**
 * Syncs the memory branch with a remote: fetch its memory ref into `refs/capsule-remotes/…`,
 * fast-forward or merge (a union; see `mergeListings`), push `<ref>:<ref>` without force. A
 * rejected push means someone pushed meanwhile: fetch, merge and push again, up to
 * `maxAttempts` rounds with a growing pause. Throws REMOTE_UNREACHABLE (nothing changed
 * locally), MEMORY_REF_CHECKED_OUT, SYNC_NOT_MEMORY, SYNC_FORMAT_MISMATCH, PUSH_REJECTED, SYNC_RACE_LOST,
 * NOT_A_REPO, MEMORY_ROOT, GIT_FAILED.
 *
 * @example const report = await syncMemory({ cwd: process.cwd(), remote: 'origin' });
 */
export async function syncMemory(opts: SyncOptions): Promise<SyncReport> {
  const store = await openStore({ cwd: opts.cwd, env: opts.env });
  const git = createGitRunner({ cwd: store.repoDir, env: opts.env ?? process.env });
  const batch = new CatFileBatch(git);
  const progress = opts.progress ?? (() => undefined);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const maxAttempts = opts.maxAttempts ?? 5;
  const waitOutLock = (text: string) => {
    const lock = lockNamedIn(text);
    if (lock !== null) progress(`capsule sync: ${lock} is held; waiting for it to be released or, if a killed git left it, to be ${STALE_REF_LOCK_MS / 1000} s old`);
    return waitOutRefLock(text);
  };
  try {
    const remote = await resolveSyncRemote(git, opts.remote);
    const ref = store.ref;
    const tracking = trackingRef(remote, ref);
    let lastReason = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      try {
        progress(`capsule sync: reading ${ref} on ${remote}${attempt > 1 ? ` (attempt ${attempt}/${maxAttempts})` : ''}`);
        let remoteTip = await lsRemote(git, remote, ref);
        if (remoteTip !== null) {
          // A tip in our own history (pushed or fetched before) needs no transfer, only the tracking ref.
          if (await inLocalHistory(git, batch, remoteTip, await store.tip())) {
            if (!opts.dryRun) await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule sync: seen', tracking, remoteTip]);
          } else {
            await fetchMemoryRef(git, remote, ref, opts.dryRun ? null : tracking);
            // The remote may have moved since ls-remote: work from what was actually fetched.
            if (!opts.dryRun) remoteTip = (await git.run(['rev-parse', '--verify', `${tracking}^{commit}`])).stdout.trim();
          }
          await checkMemoryCommit(batch, remote, ref, remoteTip);
        }
        const localTip = await store.tip();
        const action = await decide(git, localTip, remoteTip);
        const listings = action === 'merge' || action === 'fast-forward' || localTip === null || remoteTip === null ? await listBoth(git, localTip, remoteTip) : null;
        const report: SyncReport = {
          remote, ref, trackingRef: tracking, action, dryRun: opts.dryRun === true, attempts: attempt, pushed: false,
          local: { before: localTip, after: localTip }, remoteTip: { before: remoteTip, after: remoteTip },
          ...(listings ? countMoves(listings.ours, listings.theirs) : await countLinear(git, action, localTip!, remoteTip!)), resolutions: [], refused: [],
        };
        // A fast-forward takes the remote's tree as it is: only when that is exactly what merging it gives.
        const checked = action === 'fast-forward' && listings ? await checkFastForward(batch, listings, report) : null;
        if (opts.dryRun || report.action === 'nothing' || report.action === 'up-to-date') return report;

        const moved = await moveLocal({ git, batch, ref, commonDir: store.commonDir, bare: store.repoDir === store.commonDir, report, listings: listings ?? { ours: new Map(), theirs: new Map() }, merged: checked, progress });
        if (!moved.ok) {
          // A local write landed meanwhile, or a killed git left the ref's lock: start over from the new tip, no pause needed.
          lastReason = (await waitOutLock(moved.reason)) ? `a stale lock on ${ref} was cleared` : `${ref} moved locally during the sync`;
          continue;
        }
        if (opts.push === false || report.local.after === remoteTip) return report;
        progress(`capsule sync: pushing ${ref} to ${remote}`);
        const pushed = await pushMemoryRef(git, remote, ref);
        if (pushed.ok) {
          // git also moves refs/remotes/<remote>/…; a lock a killed push left there fails only that, with a warning.
          await clearStaleRefLock(pushed.stderr);
          report.pushed = true;
          report.remoteTip.after = report.local.after;
          await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule sync: pushed', tracking, report.local.after!]);
          return report;
        }
        lastReason = pushed.reason;
        if (await waitOutLock(pushed.stderr)) continue; // the remote's ref lock, left by a killed push, is gone now
        progress(`capsule sync: ${remote} moved meanwhile (${pushed.reason}); fetching again`);
        await sleep(BACKOFF_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
      } catch (err) {
        // A fetch or tracking-ref update that met a lock a killed sync left: wait it out and go again.
        if (attempt === maxAttempts || !(await waitOutLock(failureText(err)))) throw err;
        lastReason = `a stale lock was cleared (${isCapsuleError(err) ? err.code : 'error'})`;
      }
    }
    throw new CapsuleError(
      'SYNC_RACE_LOST',
      `could not push ${ref} to ${remote}: it moved under ${maxAttempts} consecutive attempts (${lastReason}); your capsules are safe locally and merged with what was fetched; run git capsule sync again in a moment`,
      { remote, ref, attempts: maxAttempts, reason: lastReason },
    );
  } finally {
    await batch.close();
    await store.close();
  }
}

/** Refuses a remote ref that is not a git-capsule memory branch (no FORMAT file): SYNC_NOT_MEMORY. */
async function checkMemoryCommit(batch: CatFileBatch, remote: string, ref: string, commit: string): Promise<void> {
  const format = await batch.readText(`${commit}:${FORMAT_PATH}`);
  if (format === null || !format.startsWith(FORMAT_MAGIC)) {
    throw new CapsuleError('SYNC_NOT_MEMORY', `${remote}'s ${ref} (${commit.slice(0, 12)}) is not a git-capsule memory branch (no ${FORMAT_PATH} file); set git config capsule.ref to the ref your capsules use on both machines`, { remote, ref, commit });
  }
}

/**
 * True when `commit` is the local tip or one of its ancestors, so it and everything it reaches
 * are here. Holding the commit object alone proves nothing: a fetch killed while unpacking
 * leaves the commit loose without its trees, and a tracking ref moved onto it would point at a
 * broken graph (fsck: missing tree; the next merge: "Could not read").
 */
async function inLocalHistory(git: GitRunner, batch: CatFileBatch, commit: string, localTip: string | null): Promise<boolean> {
  if (localTip === null || (await batch.read(commit)) === null) return false;
  return commit === localTip || (await isAncestor(git, commit, localTip));
}

async function decide(git: GitRunner, local: string | null, remote: string | null): Promise<SyncAction> {
  if (local === null && remote === null) return 'nothing';
  if (local === remote) return 'up-to-date';
  if (remote === null) return 'push';
  if (local === null) return 'fast-forward';
  if (await isAncestor(git, remote, local)) return 'push';
  if (await isAncestor(git, local, remote)) return 'fast-forward';
  return 'merge';
}

type Listings = { ours: Map<string, TreeFile>; theirs: Map<string, TreeFile> };

/** Both tips' listings (empty for a missing tip; not read at all when the tips are equal). */
async function listBoth(git: GitRunner, local: string | null, remote: string | null): Promise<Listings> {
  if (local === remote) return { ours: new Map(), theirs: new Map() };
  const [ours, theirs] = await Promise.all([local ? listTree(git, local) : new Map(), remote ? listTree(git, remote) : new Map()]);
  return { ours, theirs };
}

/** Moves the local ref for the decided action; not ok (with git's words) when it lost a compare-and-swap race or met a lock. */
async function moveLocal(input: { git: GitRunner; batch: CatFileBatch; ref: string; commonDir: string; bare: boolean; report: SyncReport; listings: Listings; merged: MergedTree | null; progress: (line: string) => void }): Promise<{ ok: true } | { ok: false; reason: string }> {
  const { git, batch, ref, report, progress } = input;
  const local = report.local.before;
  const remote = report.remoteTip.before;
  if (report.action === 'push') return { ok: true };
  refuseCheckedOut(input.commonDir, ref, { bare: input.bare });
  if (report.action === 'fast-forward' && input.merged !== null && report.refused.length > 0) {
    // The remote's tip is taken, with one commit on top that puts back what it dropped and rebuilds its index.
    progress(`capsule sync: fast-forwarding ${ref}, repairing what ${report.remote} dropped or misindexed`);
    const remoteListing = input.listings.theirs;
    const stream = buildMergeStream({ ref, epochSeconds: await laterCommitTime(git, [remote!]), merged: input.merged, parents: [{ commit: remote!, listing: remoteListing, index: input.merged.sideIndexes[1] }] });
    const outcome = await writeMergeCommit(git, stream, ref);
    if (!outcome.ok) return outcome;
    report.local.after = outcome.commit;
    await gcAuto(git);
    return { ok: true };
  }
  if (report.action === 'fast-forward') {
    progress(`capsule sync: fast-forwarding ${ref}`);
    // An empty old value makes update-ref insist the ref does not exist yet (a clone that never ran init).
    const out = await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule sync: fast-forward', ref, remote!, local ?? ''], { okExitCodes: [128] });
    if (out.exitCode !== 0) return { ok: false, reason: out.stderr };
    report.local.after = remote;
    await gcAuto(git);
    return { ok: true };
  }
  progress(`capsule sync: merging ${ref} with ${report.remote}`);
  const { ours, theirs } = input.listings;
  const merged = await mergeTrees(batch, ours, theirs);
  const [oursIndex, theirsIndex] = merged.sideIndexes;
  const epochSeconds = await laterCommitTime(git, [local!, remote!]);
  const stream = buildMergeStream({
    ref, epochSeconds, merged,
    parents: [{ commit: local!, listing: ours, index: oursIndex }, { commit: remote!, listing: theirs, index: theirsIndex }],
  });
  const outcome = await writeMergeCommit(git, stream, ref);
  if (!outcome.ok) return outcome;
  report.local.after = outcome.commit;
  report.resolutions = merged.resolutions;
  if (merged.unsafe.length > 0) report.refused = [{ reason: 'unsafe-path', count: merged.unsafe.length, paths: merged.unsafe.slice(0, 5) }];
  await gcAuto(git);
  return { ok: true };
}

/**
 * Merges what a fast-forward would take and records in `report.refused` where the remote's tree,
 * taken as it is, would differ (local files it deleted, older documents, an index its documents
 * and events do not give, paths fsck refuses). Returns the merge, for the repair commit when
 * anything was refused.
 */
async function checkFastForward(batch: CatFileBatch, listings: Listings, report: SyncReport): Promise<MergedTree> {
  const merged = await mergeTrees(batch, listings.ours, listings.theirs);
  report.refused = refusalsOf({ ours: listings.ours, theirs: listings.theirs, merged, theirsIndex: merged.sideIndexes[1], unsafe: merged.unsafe, isDerived: MEMORY_LAYOUT.isDerived });
  return merged;
}

const NO_COUNTS: SyncCounts = { capsules: 0, events: 0, changed: 0 };

/** Counts for tips on one line of history, from a diff of the two (no full listing). */
async function countLinear(git: GitRunner, action: SyncAction, local: string, remote: string): Promise<{ incoming: SyncCounts; outgoing: SyncCounts }> {
  if (action !== 'push' && action !== 'fast-forward') return { incoming: NO_COUNTS, outgoing: NO_COUNTS };
  const [from, to] = action === 'push' ? [remote, local] : [local, remote];
  const out = await git.run(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to]);
  const counts = countDiff(out.stdout);
  return action === 'push' ? { incoming: NO_COUNTS, outgoing: counts } : { incoming: counts, outgoing: NO_COUNTS };
}

async function isAncestor(git: GitRunner, ancestor: string, of: string): Promise<boolean> {
  return (await git.run(['merge-base', '--is-ancestor', ancestor, of], { okExitCodes: [1] })).exitCode === 0;
}

/** Neither plumbing nor fast-import packs; `gc --auto` costs under 10 ms when there is nothing to do. */
async function gcAuto(git: GitRunner): Promise<void> {
  await git.run([...WRITE_CONFIG, 'gc', '--auto', '--quiet']);
}

/** The words of a failed git call (its stderr when the runner kept it), where a lock would be named. */
function failureText(err: unknown): string {
  if (!isCapsuleError(err)) return String(err);
  const stderr = err.data.stderr;
  return `${typeof stderr === 'string' ? stderr : ''}\n${err.message}`;
}
