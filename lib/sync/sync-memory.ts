import { CapsuleError, isCapsuleError } from '../errors/capsule-error';
import type { StoreObjectReader } from '../git/cat-file-batch';
import { refuseCheckedOut } from '../git/checked-out';
import { WRITE_CONFIG } from '../git/git-env';
import { createGitRunner, type GitRunner } from '../git/git-runner';
import { objectsDirOf, scheduleHousekeeping } from '../git/housekeeping';
import { clearStaleRefLock, lockNamedIn, STALE_REF_LOCK_MS, waitOutRefLock } from '../git/stale-ref-lock';
import { readCachedConfig } from '../local-state/cached-config';
import { FORMAT_MAGIC, FORMAT_PATH, FORMAT_VERSION, formatVersion } from '../store/memory-format';
import { openStore } from '../store/open-store';
import { retentionFrom, type Retention } from '../store/retention';
import type { MemoryStore } from '../store/types';
import { checkIncoming, leftOutRefusals, refusal, takeRemoteTip, type SyncRefusal } from './incoming-check';
import { expiredKept, localHistoryDays } from './local-history';
import { canonicalBoth, keepRef, listBoth, listForMerge, listScoped, mergeIntoRef, moveRef } from './local-moves';
import type { MergeResolution } from './merge-listings';
import { countDiff, countMoves, type SyncCounts } from './move-counts';
import { withoutUnsafePaths } from './fsck-paths';
import { dropPaths, nameStatusOfRaw, unsafeInDiff } from './outgoing-check';
import { listTree } from './merge-trees';
import { publishCommit } from './publish-commit';
import { signsPublish } from './publish-signing';
import { publishOnRemote } from './publish-on-remote';
import { legacyRemoteRef, publishedRef } from './published-ref';
import { fetchMemoryRefs, lsRemote, pushMemoryRef, resolveSyncRemote, trackingRef } from './remote';

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
  /** The clock that names kept local history; tests pass a fixed one. */
  now?: () => Date;
}

/** What a sync did (or, on a dry run, would do). */
export interface SyncReport {
  remote: string;
  /** The local memory ref. */
  ref: string;
  /** Where the memory lives on the remote (`refs/capsules/…`, outside every default refspec). */
  remoteRef: string;
  trackingRef: string;
  action: SyncAction;
  dryRun: boolean;
  local: { before: string | null; after: string | null };
  remoteTip: { before: string | null; after: string | null };
  pushed: boolean;
  /** Commits the push added to the remote ref: the publish commit and, after a merge, the merge (never the per-turn commits). */
  published: number;
  /** Local commits the publish commit stands for. */
  localCommits: number;
  /** The ref keeping the replaced local tip (its per-turn history), or null. */
  keptLocal: string | null;
  /** Finished capsules this sync retired from the tip before publishing (capsule.retireAfterDays). */
  retired: number;
  /** The ref older git-capsule versions pushed to, when the remote still has it: merged in locally, never written. */
  legacy: { ref: string; tip: string; absorbed: boolean } | null;
  attempts: number;
  /** What the remote brings in and what this clone sends out. */
  incoming: SyncCounts;
  outgoing: SyncCounts;
  resolutions: MergeResolution[];
  /** What was not taken from the remote as it is, or left out of what was pushed (lib/sync/incoming-check.ts); empty when nothing was. */
  refused: SyncRefusal[];
}

const BACKOFF_MS = 200;

/**
 * Syncs the memory branch with a remote. The remote keeps it at `refs/capsules/<name>` (see
 * publishedRef), which a plain clone or fetch never downloads. The local branch may hold a
 * commit per turn; the remote receives its state: one publish commit on top of the remote tip
 * (see publishCommit) or, when both sides moved, one commit on the remote tip holding the union
 * of both (see publishOnRemote). The local tip it replaces is kept under
 * `refs/capsule-history/…` for `capsule.localHistoryDays` (default 14). A branch an older
 * git-capsule pushed to `<ref>` itself is merged in and never written. A rejected push means
 * someone pushed meanwhile: fetch, merge and push again, up to `maxAttempts` rounds with a
 * growing pause; nothing is ever force-pushed. Throws REMOTE_UNREACHABLE (nothing changed
 * locally), SYNC_NOT_MEMORY, SYNC_FORMAT_MISMATCH, PUSH_REJECTED, SYNC_RACE_LOST, NOT_A_REPO,
 * MEMORY_ROOT, GIT_FAILED.
 *
 * @example const report = await syncMemory({ cwd: process.cwd(), remote: 'origin' });
 */
export async function syncMemory(opts: SyncOptions): Promise<SyncReport> {
  const store = await openStore({ cwd: opts.cwd, env: opts.env });
  const git = createGitRunner({ cwd: store.repoDir, env: opts.env ?? process.env });
  // The store's own reader: a second cat-file would be one more process for the same objects.
  const batch = store.objectReader();
  const progress = opts.progress ?? (() => undefined);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = opts.now ?? (() => new Date());
  const maxAttempts = opts.maxAttempts ?? 5;
  const waitOutLock = (text: string) => {
    const lock = lockNamedIn(text);
    if (lock !== null) progress(`capsule sync: ${lock} is held; waiting for it to be released or, if a killed git left it, to be ${STALE_REF_LOCK_MS / 1000} s old`);
    return waitOutRefLock(text);
  };
  try {
    const config = (await readCachedConfig(git)).values;
    const dirs = store.repoDirs();
    const remote = await resolveSyncRemote(git, opts.remote, { values: config, gitDir: dirs.gitDir });
    const ref = store.ref;
    const names = { ref, remoteRef: publishedRef(ref), legacy: legacyRemoteRef(ref), tracking: trackingRef(remote, publishedRef(ref)) };
    const keepDays = localHistoryDays(config);
    const retention = retentionFrom(config);
    // No local move of a branch a worktree has checked out: its HEAD would move under its files.
    const guard = () => refuseCheckedOut(dirs.commonDir, ref, { bare: dirs.bare });
    let lastReason = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      try {
        progress(`capsule sync: reading ${names.remoteRef} on ${remote}${attempt > 1 ? ` (attempt ${attempt}/${maxAttempts})` : ''}`);
        const round = await syncRound({ git, batch, store, remote, names, opts, attempt, keepDays, retention, now: now(), progress, guard, sign: signsPublish(config) });
        if (round.done) return round.report;
        // A local write landed meanwhile, or a killed git left a lock: start over from the new tip, no pause needed.
        const cleared = await waitOutLock(round.stderr);
        lastReason = cleared ? `a stale lock was cleared (${round.reason})` : round.reason;
        if (cleared || round.retry === 'local') continue;
        progress(`capsule sync: ${remote} moved meanwhile (${round.reason}); fetching again`);
        await sleep(BACKOFF_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
      } catch (err) {
        // A fetch or tracking-ref update that met a lock a killed sync left: wait it out and go again.
        if (attempt === maxAttempts || !(await waitOutLock(failureText(err)))) throw err;
        lastReason = `a stale lock was cleared (${isCapsuleError(err) ? err.code : 'error'})`;
      }
    }
    throw new CapsuleError(
      'SYNC_RACE_LOST',
      `could not push ${names.remoteRef} to ${remote}: it moved under ${maxAttempts} consecutive attempts (${lastReason}); your capsules are safe locally and merged with what was fetched; run git capsule sync again in a moment`,
      { remote, ref, attempts: maxAttempts, reason: lastReason },
    );
  } finally {
    await store.close();
  }
}

interface RoundInput {
  git: GitRunner;
  batch: StoreObjectReader;
  store: MemoryStore;
  remote: string;
  names: { ref: string; remoteRef: string; legacy: string | null; tracking: string };
  opts: SyncOptions;
  attempt: number;
  keepDays: number;
  retention: Retention;
  now: Date;
  progress: (line: string) => void;
  /** Throws MEMORY_REF_CHECKED_OUT; run before every move of the local memory ref. */
  guard: () => void;
  /** Sign the publish commit (publish-signing.ts: the user configured a signing key). */
  sign: boolean;
}

type RoundOutcome = { done: true; report: SyncReport } | { done: false; retry: 'local' | 'push'; reason: string; stderr: string };

/** What a round works on as its steps move things: the report, the local tip, the remote tip, and where a repair is staged. */
interface RoundState {
  report: SyncReport;
  local: string | null;
  remoteTip: string | null;
  /** The ref a merge or repair commit is staged under before the local branch moves (dropped after). */
  scratch: string;
  /** A document this clone sealed keeps its place against any version it did not seal (merge-listings.ts). */
  sealedHere: (text: string) => boolean;
}

/** One round: read the remote, bring in what it has, publish what this clone has, push. */
async function syncRound(input: RoundInput): Promise<RoundOutcome> {
  const state = await readRemote(input);
  const legacy = await absorbLegacy(input, state);
  if (legacy !== null) return legacy;
  await prepareLocal(input, state);
  const plan = await planRound(input, state);
  const { report } = state;
  const pushing = input.opts.push !== false;
  if (input.opts.dryRun === true || report.action === 'nothing' || report.action === 'up-to-date' || (report.action === 'push' && !pushing)) return { done: true, report };
  input.guard();
  if (report.action === 'fast-forward') return fastForward(input, state, plan);
  if (!pushing) return mergeLocally(input, state, plan);
  return publish(input, state, plan);
}

/**
 * Step 1: the remote's tips (one ls-remote), fetched where this clone lacks them (one fetch, into
 * the tracking refs), each checked to be a memory branch; the round's report, as nothing moved yet.
 */
async function readRemote(input: RoundInput): Promise<RoundState & { legacy: { tip: string | null; tracking: string | null; isNew: boolean } }> {
  const { git, batch, store, remote, names, opts } = input;
  const { ref, remoteRef, tracking } = names;
  const dryRun = opts.dryRun === true;
  const heads = await lsRemote(git, remote, names.legacy ? [remoteRef, names.legacy] : [remoteRef]);
  let remoteTip = heads.get(remoteRef) ?? null;
  const legacySeen = names.legacy ? heads.get(names.legacy) ?? null : null;
  const local = await store.tip();
  const legacyTracking = names.legacy ? trackingRef(remote, names.legacy) : null;
  const legacyNew = legacySeen !== null && legacyTracking !== null && (await revParse(git, legacyTracking)) !== legacySeen && !(await inLocalHistory(git, batch, legacySeen, local));

  // One fetch for both refs; a tip already in our own history needs no transfer, only its tracking ref.
  const fetches: Array<{ ref: string; into: string | null }> = [];
  const remoteKnown = remoteTip !== null && (await inLocalHistory(git, batch, remoteTip, local));
  if (remoteTip !== null && !remoteKnown) fetches.push({ ref: remoteRef, into: dryRun ? null : tracking });
  if (legacyNew) fetches.push({ ref: names.legacy!, into: dryRun ? null : legacyTracking });
  await fetchMemoryRefs(git, remote, fetches);
  if (!dryRun) {
    // The remote may have moved since ls-remote: work from what was actually fetched.
    if (remoteTip !== null && !remoteKnown) remoteTip = await revParse(git, tracking);
    else if (remoteTip !== null) await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule sync: seen', tracking, remoteTip]);
  }
  if (remoteTip !== null) await checkMemoryCommit(batch, remote, remoteRef, remoteTip);
  const legacyTip = legacyNew && !dryRun ? await revParse(git, legacyTracking!) : legacySeen;
  if (legacyNew) await checkMemoryCommit(batch, remote, names.legacy!, legacyTip!);

  const report: SyncReport = {
    remote, ref, remoteRef, trackingRef: tracking, action: 'nothing', dryRun, attempts: input.attempt, pushed: false, published: 0, localCommits: 0, keptLocal: null, retired: 0,
    legacy: legacySeen === null ? null : { ref: names.legacy!, tip: legacyTip!, absorbed: false },
    local: { before: local, after: local }, remoteTip: { before: remoteTip, after: remoteTip },
    incoming: { capsules: 0, events: 0, changed: 0 }, outgoing: { capsules: 0, events: 0, changed: 0 }, resolutions: [], refused: [],
  };
  return {
    report, local, remoteTip,
    scratch: tracking.replace(/^refs\/capsule-remotes\//, 'refs/capsule-scratch/'),
    sealedHere: (text: string) => store.sealOf(text) === 'valid',
    legacy: { tip: legacyTip, tracking: legacyTracking, isNew: legacyNew },
  };
}

/** Step 2: a branch an older git-capsule pushed, merged into the local branch (never published as it is). A retry when the local branch moved meanwhile. */
async function absorbLegacy(input: RoundInput, state: Awaited<ReturnType<typeof readRemote>>): Promise<RoundOutcome | null> {
  const { git, batch, remote, names, progress } = input;
  const { report, scratch, sealedHere, legacy } = state;
  const dryRun = input.opts.dryRun === true;
  if (legacy.isNew && !dryRun) {
    const ref = names.ref;
    const local = state.local;
    progress(`capsule sync: merging ${names.legacy} from ${remote} (pushed by an older git-capsule)`);
    input.guard();
    const moved = local === null
      ? await takeRemoteTip(git, batch, { local, remote: legacy.tip!, scratch, sealedHere }).then(async (t) => {
        report.refused.push(...t.refused);
        const m = await moveRef(git, { ref, to: t.commit, from: null, drop: t.commit === legacy.tip ? [] : [scratch] });
        return m.ok ? { ok: true as const, after: t.commit, resolutions: [], unsafe: [] } : m;
      })
      : await mergeIntoRef(git, batch, { ref, local, remote: legacy.tip!, listings: await listBoth(git, local, legacy.tip!), sealedHere });
    if (!moved.ok) return { done: false, retry: 'local', reason: `${ref} moved locally during the sync`, stderr: moved.reason };
    report.refused.push(...leftOutRefusals(moved.unsafe));
    await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule sync: merged', legacy.tracking!, legacy.tip!]);
    state.local = moved.after;
    report.legacy!.absorbed = true;
  } else if (legacy.tip !== null && !dryRun && legacy.tracking !== null && !legacy.isNew) {
    await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule sync: seen', legacy.tracking, legacy.tip]);
  }
  return null;
}

/** Step 3: the local branch in the current layout, and retention applied, before anything of it is published. */
async function prepareLocal(input: RoundInput, state: RoundState): Promise<void> {
  const { batch, store, names, opts, progress } = input;
  if (state.local === null || opts.dryRun === true) return;
  if (formatVersion(await batch.readText(`${state.local}:${FORMAT_PATH}`)) !== FORMAT_VERSION) {
    progress(`capsule sync: moving ${names.ref} to memory layout ${FORMAT_VERSION}`);
    await store.rebuildIndex({ now: input.now });
    state.local = await store.tip();
  }
  // Retention before publishing: finished capsules past capsule.retireAfterDays leave the tip (a forward commit).
  if (state.local !== null && opts.push !== false) {
    const retired = await store.retire({ now: input.now, retention: input.retention });
    if (retired.commit !== null) {
      progress(`capsule sync: retired ${retired.retired.length} finished capsules from the tip (they stay in the history)`);
      state.local = retired.commit;
      state.report.retired = retired.retired.length;
    }
  }
}

/** What step 4 decided: the action's merge base, both tips' listings (merge, fast-forward, first push) or the diff of a linear move. */
interface RoundPlan {
  base: string | null;
  listings: Awaited<ReturnType<typeof listBoth>> | null;
  linear: Awaited<ReturnType<typeof countLinear>> | null;
  /** The local tip the linear diff was taken from. */
  diffed: string | null;
}

/** Step 4: what the two tips call for, and what comes in and goes out (counted into the report). */
async function planRound(input: RoundInput, state: RoundState): Promise<RoundPlan> {
  const { git, batch } = input;
  const { report, local, remoteTip } = state;
  const decided = await decide(git, local, remoteTip);
  report.action = decided.action;
  // A fast-forward is checked against the merge (incoming-check.ts), which needs both listings anyway.
  // A merge reads only the day folders that differ (listForMerge); a fast-forward's check reads both trees whole.
  const listings = report.action === 'merge' ? await listForMerge(git, local!, remoteTip!) : report.action === 'fast-forward' || local === null || remoteTip === null ? await listBoth(git, local, remoteTip) : null;
  const seen = listings ? canonicalBoth(listings) : null;
  const linear = seen ? null : await countLinear(git, report.action, local!, remoteTip!);
  Object.assign(report, seen ? countMoves(seen.ours, seen.theirs) : linear!.counts);
  if (report.legacy?.absorbed && report.local.before !== local) report.local.after = local;
  // A fast-forward takes the remote's tree as it is: only when that is what merging it gives.
  if (input.opts.dryRun === true && report.action === 'fast-forward') report.refused.push(...(await checkIncoming(git, batch, { local, remote: remoteTip!, listings, sealedHere: state.sealedHere })).refused);
  return { base: decided.base, listings, linear, diffed: local };
}

/** Step 5a: the local branch takes the remote's tip (or a repair on top of it, pushed back). */
async function fastForward(input: RoundInput, state: RoundState, plan: RoundPlan): Promise<RoundOutcome> {
  const { git, batch, store, remote, names, progress } = input;
  const { report, local, remoteTip, scratch, sealedHere } = state;
  const taken = await takeRemoteTip(git, batch, { local, remote: remoteTip!, scratch, listings: plan.listings, sealedHere });
  report.refused.push(...taken.refused);
  progress(`capsule sync: fast-forwarding ${names.ref}${taken.commit === remoteTip ? '' : `, repairing what ${remote} dropped, misindexed or cannot hold`}`);
  const moved = await moveRef(git, { ref: names.ref, to: taken.commit, from: local, drop: taken.commit === remoteTip ? [] : [scratch] });
  if (!moved.ok) return { done: false, retry: 'local', reason: `${names.ref} moved locally during the sync`, stderr: moved.reason };
  report.local.after = taken.commit;
  housekeep(git, store);
  // A repair goes back to the remote (a --no-push sync leaves it for the next push).
  if (taken.commit === remoteTip || input.opts.push === false) return { done: true, report };
  report.published = 1;
  return pushState(input, report, taken.commit);
}

/** Step 5b, the post-merge hook: today's union merge, local only; the next pushing sync publishes its state. */
async function mergeLocally(input: RoundInput, state: RoundState, plan: RoundPlan): Promise<RoundOutcome> {
  const { git, batch, store, remote, names, progress } = input;
  const { report } = state;
  progress(`capsule sync: merging ${names.ref} with ${remote}`);
  const moved = await mergeIntoRef(git, batch, { ref: names.ref, local: state.local!, remote: state.remoteTip!, listings: plan.listings!, sealedHere: state.sealedHere });
  if (!moved.ok) return { done: false, retry: 'local', reason: `${names.ref} moved locally during the sync`, stderr: moved.reason };
  report.local.after = moved.after;
  report.resolutions = moved.resolutions;
  report.refused.push(...foreignRevisions(moved.resolutions));
  report.refused.push(...leftOutRefusals(moved.unsafe));
  housekeep(git, store);
  return { done: true, report };
}

/** Step 5c: the local state in one commit on the remote tip (holding the union of both when it moved), the local branch moved to it, pushed. */
async function publish(input: RoundInput, state: RoundState, plan: RoundPlan): Promise<RoundOutcome> {
  const { git, batch, store, remote, names, progress } = input;
  const { ref } = names;
  const { report, remoteTip, scratch, sealedHere } = state;
  const { listings, linear } = plan;
  let local = state.local;
  // Nothing sync leaves out (fsck-refused names, links, gitlinks, too deep) is published, whatever put it on the local
  // branch (read from what this round already listed or diffed).
  const unsafe = linear ? unsafeInDiff(linear.raw) : withoutUnsafePaths(listings!.ours).unsafe;
  if (unsafe.length > 0) {
    progress(`capsule sync: leaving out ${unsafe.length} entries no memory tree holds (${[...new Set(unsafe.map((u) => u.kind))].join(', ')})`);
    const cleaned = await dropPaths(git, { ref, tip: local!, paths: unsafe.map((u) => u.path) });
    if (!cleaned.ok) return { done: false, retry: 'local', reason: `${ref} moved locally during the sync`, stderr: cleaned.reason };
    report.refused.push(...leftOutRefusals(unsafe));
    local = cleaned.commit;
    if (report.action === 'merge') listings!.ours = listings!.scope ? await listScoped(git, local, listings!.scope) : await listTree(git, local);
  }

  // The base is the newest state the remote holds that this branch reaches; a first push starts from the shared root.
  // (A commit that left out unsafe paths descends from the tip decide saw, so its merge base is the same.)
  const base = report.action === 'push' && remoteTip !== null ? remoteTip : (plan.base ?? (await rootOf(git, local!)));
  if (report.action === 'merge') progress(`capsule sync: merging ${ref} with ${remote}`);
  const published = report.action === 'merge'
    ? await publishOnRemote(git, batch, { tip: local!, base, remote: remoteTip!, listings: listings!, identity: store.identity, scratch, sealedHere })
    : { ...(await publishCommit(git, batch, { tip: local!, base, identity: store.identity, sign: input.sign, diff: linear && report.action === 'push' && local === plan.diffed ? linear.diff : undefined })), resolutions: [], unsafe: [] };
  report.localCommits = published.localCommits;
  report.resolutions = published.resolutions;
  report.refused.push(...foreignRevisions(published.resolutions));
  report.refused.push(...leftOutRefusals(published.unsafe));
  const result = published.commit;
  // The remote already holds all of it (a sync killed after its push, a local merge it has since gone past): nothing to push.
  if (result === remoteTip) report.action = 'fast-forward';
  report.published = result === remoteTip ? 0 : 1;
  // A new publish commit does not descend from the local tip: the per-turn history it stands for is kept locally.
  const keep = published.created || report.action === 'fast-forward' ? keepRef(ref, local!, input.now, input.keepDays) : null;
  const drop = published.created && report.action === 'merge' ? [scratch] : [];
  drop.push(...(await expiredKept(git, ref, input.now, input.keepDays)));
  const moved = await moveRef(git, { ref, to: result, from: local, keep, drop });
  if (!moved.ok) return { done: false, retry: 'local', reason: `${ref} moved locally during the sync`, stderr: moved.reason };
  report.local.after = result;
  report.keptLocal = keep;
  housekeep(git, store);
  if (result === remoteTip) return { done: true, report };
  return pushState(input, report, result);
}

/** The remote revisions a merge set aside because this clone sealed the version it kept (merge-listings.ts). */
function foreignRevisions(resolutions: readonly MergeResolution[]): SyncRefusal[] {
  return refusal('foreign-revision', resolutions.flatMap((r) => (r.foreign === undefined ? [] : [r.foreign])));
}

/** Pushes `result` (the new local tip) to the remote's memory ref; a rejection means the remote moved: another round. */
async function pushState(input: RoundInput, report: SyncReport, result: string): Promise<RoundOutcome> {
  const { git, remote, progress } = input;
  const { remoteRef, tracking } = input.names;
  progress(`capsule sync: pushing ${remoteRef} to ${remote}`);
  const pushed = await pushMemoryRef(git, remote, { source: result, ref: remoteRef });
  if (!pushed.ok) return { done: false, retry: 'push', reason: pushed.reason, stderr: pushed.stderr };
  // git may also move a refs/remotes/<remote>/… copy; a lock a killed push left there fails only that, with a warning.
  await clearStaleRefLock(pushed.stderr);
  report.pushed = true;
  report.remoteTip.after = result;
  await git.run([...WRITE_CONFIG, 'update-ref', '-m', 'capsule sync: pushed', tracking, result]);
  return { done: true, report };
}

/** Refuses a remote ref that is not a git-capsule memory branch (no FORMAT file): SYNC_NOT_MEMORY. */
async function checkMemoryCommit(batch: StoreObjectReader, remote: string, ref: string, commit: string): Promise<void> {
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
async function inLocalHistory(git: GitRunner, batch: StoreObjectReader, commit: string, localTip: string | null): Promise<boolean> {
  if (localTip === null || (await batch.read(commit)) === null) return false;
  return commit === localTip || (await isAncestor(git, commit, localTip));
}

/**
 * What the two tips call for, and the newest commit both reach (null when either is missing or
 * they share none). One `git merge-base`: the remote tip is the merge base exactly when the local
 * branch contains it, and the local tip when the remote contains it.
 */
async function decide(git: GitRunner, local: string | null, remote: string | null): Promise<{ action: SyncAction; base: string | null }> {
  if (local === null && remote === null) return { action: 'nothing', base: null };
  if (local === remote) return { action: 'up-to-date', base: local };
  if (remote === null) return { action: 'push', base: null };
  if (local === null) return { action: 'fast-forward', base: null };
  const base = await mergeBase(git, local, remote);
  return { action: base === remote ? 'push' : base === local ? 'fast-forward' : 'merge', base };
}

const NO_COUNTS: SyncCounts = { capsules: 0, events: 0, changed: 0 };

/** Counts for tips on one line of history, from a diff of the two (no full listing), and that diff (`--name-status -z`). */
async function countLinear(git: GitRunner, action: SyncAction, local: string, remote: string): Promise<{ counts: { incoming: SyncCounts; outgoing: SyncCounts }; diff: string; raw: string }> {
  if (action !== 'push' && action !== 'fast-forward') return { counts: { incoming: NO_COUNTS, outgoing: NO_COUNTS }, diff: '', raw: '' };
  const [from, to] = action === 'push' ? [remote, local] : [local, remote];
  // --raw, for the modes the outgoing check reads (a link, a gitlink); the rest read it as --name-status.
  const out = await git.run(['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to]);
  const diff = nameStatusOfRaw(out.stdout);
  const counts = countDiff(diff);
  return { counts: action === 'push' ? { incoming: NO_COUNTS, outgoing: counts } : { incoming: counts, outgoing: NO_COUNTS }, diff, raw: out.stdout };
}

async function isAncestor(git: GitRunner, ancestor: string, of: string): Promise<boolean> {
  return (await git.run(['merge-base', '--is-ancestor', ancestor, of], { okExitCodes: [1] })).exitCode === 0;
}

/** The newest commit both tips reach (the state the remote already holds), or null for unrelated ones. */
async function mergeBase(git: GitRunner, a: string, b: string): Promise<string | null> {
  const out = await git.run(['merge-base', a, b], { okExitCodes: [1] });
  return out.exitCode === 0 ? out.stdout.trim() : null;
}

/** The root of a branch (the deterministic root commit, which every memory branch starts from; the first in id order of several). */
async function rootOf(git: GitRunner, tip: string): Promise<string> {
  const roots = (await git.run(['rev-list', '--max-parents=0', tip, '--'])).stdout.trim().split('\n').filter(Boolean).sort();
  return roots[0] ?? tip;
}

async function revParse(git: GitRunner, ref: string): Promise<string | null> {
  const out = await git.run(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { okExitCodes: [1] });
  return out.exitCode === 0 ? out.stdout.trim() : null;
}


/** Fetches of under 100 objects unpack them loose, and so do the merges: pack them once they pile up, never waiting. */
function housekeep(git: GitRunner, store: MemoryStore): void {
  scheduleHousekeeping(git, { objectsDir: objectsDirOf(store.commonDir, git.env) });
}

/** The words of a failed git call (its stderr when the runner kept it), where a lock would be named. */
function failureText(err: unknown): string {
  if (!isCapsuleError(err)) return String(err);
  const stderr = err.data.stderr;
  return `${typeof stderr === 'string' ? stderr : ''}\n${err.message}`;
}
