import type { CapsuleStatus } from '../capsule/types';
import type { GitObject, StoreObjectReader } from '../git/cat-file-batch';
import type { GitIdentity } from '../git/git-env';
import type { GitRunner } from '../git/git-runner';
import { indexCoverage, type IndexCoverage } from './index-coverage';
import { initMemory } from './init-memory';
import { readJournal } from './journal';
import { countByStatus, listIndex } from './list-index';
import { MemoryTree } from './memory-tree';
import { readCapsule, readTexts } from './read-capsule';
import { rebuildIndex } from './rebuild-index';
import { checkedOutError, worktreesHolding } from '../git/checked-out';
import { discoverRepoSync, type RepoDirs } from '../git/repo-dirs';
import { keepsImportPacks, objectsDirOf, scheduleHousekeeping } from '../git/housekeeping';
import { resolveStateDir } from '../local-state/state-dir';
import type { IdentityStamp } from '../capsule/identity-fields';
import { readLocalIdentity } from '../local-state/local-identity';
import { ensureSealKey, readSealKey } from '../local-state/seal-key';
import { checkSeal, type SealCheck } from '../capsule/seal';
import { randomBytesForId } from './random-bytes';
import { sealOwnHistory } from './seal-upgrade';
import { lastSignatures, type SignatureCheck } from '../git/commit-signature';
import { readForeignRevisions, type ForeignRevision } from './foreign-revisions';
import { readPrivateFile, writePrivateFile } from '../local-state/private-file';
import { appendErrorLog } from '../local-state/error-log';
import { STATE_FILES, statePath } from '../local-state/state-files';
import { isCapsuleError } from '../errors/capsule-error';
import { retireFinished, type RetireResult } from './retire-capsules';
import type { Retention } from './retention';
import { setStatus } from './set-status';
import type { StoreParts } from './store-parts';
import type { CapsuleRecord, IndexEntry, JournalEntry, ListIndexOptions, MemoryStore, StatusCounts, StatusResult, WriteOptions, WriteResult } from './types';
import { writeCapsule } from './write-capsule';
import { acquireWriteLock, writeLockPath } from './write-lock';

/** The memory branch backed by the git CLI: one runner, one object reader (the git files, or a long-lived cat-file), one ref. */
export class GitMemoryStore implements MemoryStore {
  private readonly parts: StoreParts;
  private dirs: RepoDirs | null = null;
  private key: Uint8Array | null | undefined;
  private upgraded = false;

  constructor(private readonly git: GitRunner, private readonly batch: StoreObjectReader, readonly ref: string, opts: { identity: GitIdentity; dirs?: RepoDirs | null }) {
    const lock = () => acquireWriteLock(writeLockPath(this.stateDir, this.commonDir, ref));
    let stamp: IdentityStamp | undefined;
    // Read once, on the first write: a reading verb never touches the machine id.
    const stampOf = (now: Date) => (stamp ??= { author: opts.identity.email, ...readLocalIdentity(this.stateDir, this.repoDirs(), now) });
    // Made on the first write, read on the first check: a reading verb that checks nothing never touches it.
    const sealKey = () => (this.key ??= ensureSealKey(this.stateDir, (n) => new Uint8Array(randomBytesForId(n))).key);
    this.dirs = opts.dirs ?? null;
    // Only with the directories already known: finding them costs a git process a hook should not pay for this.
    const objectsDir = () => (this.dirs ? objectsDirOf(this.dirs.commonDir, git.env) : null);
    let keep: boolean | undefined;
    const keepPack = () => (keep ??= keepsImportPacks(objectsDir()));
    // A write that kept its pack left no loose object: only the packs are counted after it.
    const housekeeping = () => void scheduleHousekeeping(git, { objectsDir: objectsDir(), loose: !keepPack() });
    const tree = new MemoryTree(batch, ref, git);
    // A ref that is no memory branch at all is refused as that first (MEMORY_ROOT, by reading the
    // tip), but only when a worktree holds it: every write reads the tip right after this anyway.
    const guard = async () => {
      const holders = worktreesHolding(this.commonDir, ref, { bare: this.repoDirs().bare });
      if (holders.length === 0) return;
      await tree.tip();
      throw checkedOutError(ref, holders);
    };
    this.parts = { git, tree, ref, identity: opts.identity, stamp: stampOf, sealKey, lock, guard, housekeeping, keepPack };
  }

  /** Who the store's commits are by. */
  get identity(): GitIdentity {
    return this.parts.identity;
  }

  /** The working tree top level (the git dir when bare); known at open or found on first use (one rev-parse). */
  get repoDir(): string {
    return this.repoDirs().repoDir;
  }

  /** The absolute common git dir; known at open or found on first use (one rev-parse). */
  get commonDir(): string {
    return this.repoDirs().commonDir;
  }

  /** The runtime state dir (lib/local-state decides it), where the write lock lives. */
  get stateDir(): string {
    return resolveStateDir({ env: this.git.env, commonDir: this.commonDir, workTree: this.repoDirs().bare ? null : this.repoDir })!;
  }

  /** This worktree's git dir; known at open or found on first use (one rev-parse). */
  get gitDir(): string {
    return this.repoDirs().gitDir;
  }

  writerIdentity(now: Date): IdentityStamp {
    return this.parts.stamp(now);
  }

  sealOf(text: string): SealCheck {
    // undefined: not read yet; null: this clone has no key yet, so nothing is sealed here.
    if (this.key === undefined) this.key = readSealKey(this.stateDir);
    return checkSeal(text, this.key);
  }

  /** All of the repository's directories (NOT_A_REPO, GIT_FAILED). */
  repoDirs(): RepoDirs {
    this.dirs ??= discoverRepoSync(this.git);
    return this.dirs;
  }

  readObject(name: string): Promise<GitObject | null> {
    return this.batch.read(name);
  }

  objectReader(): StoreObjectReader {
    return this.batch;
  }

  async exists(): Promise<boolean> {
    return (await this.tip()) !== null;
  }

  tip(): Promise<string | null> {
    return this.parts.tree.tip();
  }

  init(): Promise<{ root: string; created: boolean }> {
    return initMemory(this.parts);
  }

  async writeCapsule(text: string, opts: WriteOptions): Promise<WriteResult> {
    await this.sealOwnHistory(opts.now);
    return writeCapsule(this.parts, text, opts);
  }

  async sealOwnHistory(now: Date): Promise<number> {
    if (this.upgraded) return 0;
    const marker = statePath(this.stateDir, STATE_FILES.sealUpgrade);
    const record = readSealUpgradeRecord(readPrivateFile(marker));
    if (record.state === 'done') {
      this.upgraded = true;
      return 0;
    }
    // A try that failed (a clone too big for a hook's budget, a busy machine) waits before the
    // next: retried by every hook, it would cost each one its whole budget.
    if (record.state === 'failed' && now.getTime() < record.retryAt) return 0;
    try {
      const done = await sealOwnHistory(this.parts, { commonDir: this.commonDir, now });
      writePrivateFile(marker, `${JSON.stringify({ at: now.toISOString(), sealed: done.sealed, commit: done.commit })}\n`);
      this.upgraded = true;
      return done.sealed;
    } catch (err) {
      // Never in the way of a write or a resume: a later one tries again, and the log says why.
      const attempts = record.state === 'failed' ? record.attempts + 1 : 1;
      writePrivateFile(marker, `${JSON.stringify({ failedAt: now.toISOString(), attempts })}\n`);
      appendErrorLog(this.stateDir, { code: 'SEAL_UPGRADE_FAILED', message: `${isCapsuleError(err) ? `[${err.code}] ` : ''}${err instanceof Error ? err.message : String(err)} (try ${attempts}; the next in ${sealRetryDelayMs(attempts) / 3_600_000} h)`, now, event: 'seal-upgrade' });
      return 0;
    }
  }

  setStatus(id: string, status: CapsuleStatus, opts: { writer: string; now: Date; whileRunning?: () => void }): Promise<StatusResult> {
    return setStatus(this.parts, id, status, opts);
  }

  readCapsule(idOrPrefix: string): Promise<CapsuleRecord> {
    return readCapsule(this.parts.tree, idOrPrefix);
  }

  listIndex(opts?: ListIndexOptions): Promise<IndexEntry[]> {
    return listIndex(this.parts.tree, opts);
  }

  countByStatus(): Promise<StatusCounts> {
    return countByStatus(this.parts.tree);
  }

  indexCoverage(): Promise<IndexCoverage> {
    return indexCoverage(this.parts.tree, this.stateDir);
  }

  retire(opts: { now: Date; retention: Retention }): Promise<RetireResult> {
    return retireFinished(this.parts, opts);
  }

  rebuildIndex(opts: { now: Date }): Promise<{ commit: string | null; changed: boolean; count: number }> {
    return rebuildIndex(this.parts, opts);
  }

  signaturesOf(paths: readonly string[], rev: string = this.ref): Promise<Map<string, SignatureCheck>> {
    return lastSignatures(this.git, rev, paths);
  }

  foreignRevisions(documentPath: string): Promise<{ named: ForeignRevision[]; total: number }> {
    return readForeignRevisions(this.parts.tree, documentPath);
  }

  readTexts(ids: string[]): Promise<Map<string, string>> {
    return readTexts(this.parts.tree, ids);
  }

  async log(opts?: { limit?: number }): Promise<JournalEntry[]> {
    return readJournal(this.parts.git, await this.tip(), opts);
  }

  close(): Promise<void> {
    return this.batch.close();
  }
}

/** How long after its `attempts`-th failed try the seal upgrade is tried again: 1 h, doubling, at most a day. */
export function sealRetryDelayMs(attempts: number): number {
  return Math.min(24, 2 ** Math.max(0, attempts - 1)) * 3_600_000;
}

type SealUpgradeRecord = { state: 'none' } | { state: 'done' } | { state: 'failed'; attempts: number; retryAt: number };

/** The upgrade record: absent, done (any record without `failedAt`, as every earlier version wrote it), or a failed try and when to try again. */
function readSealUpgradeRecord(text: string | null): SealUpgradeRecord {
  if (text === null) return { state: 'none' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { state: 'none' }; // unreadable: try again, and write it anew
  }
  const value = (parsed !== null && typeof parsed === 'object' ? parsed : {}) as { failedAt?: unknown; attempts?: unknown };
  if (value.failedAt === undefined) return { state: 'done' };
  const failedAt = typeof value.failedAt === 'string' ? Date.parse(value.failedAt) : NaN;
  const attempts = typeof value.attempts === 'number' && Number.isInteger(value.attempts) && value.attempts > 0 ? value.attempts : 1;
  return Number.isNaN(failedAt) ? { state: 'none' } : { state: 'failed', attempts, retryAt: failedAt + sealRetryDelayMs(attempts) };
}
