import type { IdentityStamp } from '../capsule/identity-fields';
import type { SealCheck } from '../capsule/seal';
import type { ForeignRevision } from './foreign-revisions';
import type { SignatureCheck } from '../git/commit-signature';
import type { RetireResult } from './retire-capsules';
import type { Retention } from './retention';
import type { GitIdentity } from '../git/git-env';
import type { CapsuleStatus } from '../capsule/types';
import type { GitObject, StoreObjectReader } from '../git/cat-file-batch';
import type { RepoDirs } from '../git/repo-dirs';
import type { RedactionFinding } from '../redact/finding-tally';

/** One status event: a small file `status/<stamp>-<writer>-<status>` beside the capsule. */
export interface StatusEvent {
  /** UTC stamp `YYYYMMDDTHHMMSSmmmZ`, sortable as a string. */
  stamp: string;
  writer: string;
  status: CapsuleStatus;
  /** Path of the event file in the memory tree. */
  path: string;
}

/** One row of the derived selection index: enough to list and select without reading capsule blobs. */
export interface IndexEntry {
  id: string;
  /** Derived status: the lattice maximum of the frontmatter status and the events. */
  status: CapsuleStatus;
  /** `created_at` exactly as written (with its offset). */
  createdAt: string;
  /** UTC sort key of `createdAt` (see `utcSortKey`); entries order by it. */
  sortKey: string;
  trigger?: string;
  /** The objective, folded to one line and bounded (the document has the full text). */
  objective?: string;
  sessionId?: string;
  /** Who and where wrote it (the frontmatter's `author`, `machine`, `worktree`, `repo_branch`), and whom a handoff is addressed to. */
  author?: string;
  machine?: string;
  worktree?: string;
  branch?: string;
  handoffTo?: string;
  /** True when its `tags` include `autosave` (a writer that tags instead of setting `trigger`). */
  autosaveTag?: true;
  /** Path of `capsule.md` in the memory tree. */
  path: string;
}

/** Options of `listIndex`: restrict to some statuses and stop after `limit` entries (newest first). */
export interface ListIndexOptions {
  status?: readonly CapsuleStatus[];
  limit?: number;
}

/** How `writeCapsule` writes. */
export interface WriteOptions {
  now: Date;
  /** The operation its commit message names (default: write, or replace for an existing capsule). */
  op?: string;
  /** Rewrites an existing capsule in place (autosave); nothing is committed when its bytes are unchanged. */
  replace?: boolean;
  /**
   * Work that need not wait for the commit, run once while git makes it (once git has the commit's
   * stream, before it answers): a hook's one long wait. Not run when nothing is committed or no git
   * process makes the commit. Must not throw.
   */
  whileCommitting?: () => void;
}

/** What `writeCapsule` did: the capsule id, the commit (null when nothing changed), its path. */
export interface WriteResult {
  id: string;
  commit: string | null;
  path: string;
  changed: boolean;
  /** The secrets redacted from the text before anything was built from it (kinds and counts, never a value). */
  redactions: RedactionFinding[];
}

/** What `setStatus` did: the commit now at the tip and the derived status after it. */
export interface StatusResult {
  /** The capsule's full id (the caller may have given a prefix). */
  id: string;
  commit: string;
  status: CapsuleStatus;
  /** False when the capsule already had this status (nothing written). */
  changed: boolean;
}

/** A capsule read back from the memory branch, with its status history (oldest first). */
export interface CapsuleRecord {
  id: string;
  path: string;
  text: string;
  status: CapsuleStatus;
  events: StatusEvent[];
}

/** One commit of the memory branch journal, newest first. */
export interface JournalEntry {
  commit: string;
  date: string;
  subject: string;
  trailers: Record<string, string>;
}

/** Counts of capsules per derived status, read from the index without reading capsules. */
export type StatusCounts = Record<CapsuleStatus, number>;

/**
 * The memory branch of one repository. Reads and writes never touch the working tree,
 * the index, HEAD or any other ref.
 */
export interface MemoryStore {
  readonly ref: string;
  /** Who its commits are by: GIT_COMMITTER_*, else user.name and user.email, else git-capsule's fallback. */
  readonly identity: GitIdentity;
  /** The working tree top level, or the git dir of a bare repository. */
  readonly repoDir: string;
  /** `git rev-parse --git-common-dir`, absolute: the runtime state lives under `<commonDir>/capsule/`. */
  readonly commonDir: string;
  /** This worktree's git dir (HEAD lives here). */
  readonly gitDir: string;
  /** Who and where this store writes: the identity it stamps on every capsule (creates this clone's machine id on first use). */
  writerIdentity(now: Date): IdentityStamp;
  /**
   * Whether this clone sealed `text` (lib/capsule/seal.ts): `valid` only for a document written
   * here, unchanged since. Reads the key without making one (SEAL_KEY_UNREADABLE).
   */
  sealOf(text: string): SealCheck;
  /**
   * Seals, once per clone, the capsules its own reflog says it wrote before seals existed
   * (lib/store/seal-upgrade.ts); every write runs it first, a scoped resume before selecting.
   * Never throws: a failure is an error-log line (SEAL_UPGRADE_FAILED) and the next call tries
   * again. Returns how many it sealed.
   */
  sealOwnHistory(now: Date): Promise<number>;
  /** All of the repository's directories (NOT_A_REPO, GIT_FAILED when git must be asked and fails). */
  repoDirs(): RepoDirs;
  /** Any object of the repository by name (`<oid>`, `<rev>:<path>`), through the store's open reader; null when missing. */
  readObject(name: string): Promise<GitObject | null>;
  /**
   * The store's open object reader itself, for a caller that reads many objects beside the store
   * (sync): one reader per process instead of a second `cat-file`. Closed by the store's close.
   */
  objectReader(): StoreObjectReader;
  /** True when the memory ref exists. */
  exists(): Promise<boolean>;
  /** The memory ref's commit, or null when the branch does not exist yet. */
  tip(): Promise<string | null>;
  /** Creates the branch at the deterministic root commit when missing. */
  init(): Promise<{ root: string; created: boolean }>;
  /** Validates and commits one capsule (CAPSULE_INVALID with data.problems, CAPSULE_EXISTS, CREATED_AT_CHANGED, WRITE_CONFLICT, MEMORY_ROOT). */
  writeCapsule(text: string, opts: WriteOptions): Promise<WriteResult>;
  /** Adds a status event (STATUS_BACKWARD, NOT_FOUND, STATUS_UNKNOWN). */
  /** `whileRunning`: called once fast-import has the commit (it may still be writing it), so the caller's own reads go on meanwhile. */
  setStatus(id: string, status: CapsuleStatus, opts: { writer: string; now: Date; whileRunning?: () => void }): Promise<StatusResult>;
  /** Reads a capsule by id or unambiguous id prefix (NOT_FOUND, AMBIGUOUS_ID). */
  readCapsule(idOrPrefix: string): Promise<CapsuleRecord>;
  /** Index entries newest first by UTC created_at, from the derived index, no capsule blob reads. */
  listIndex(opts?: ListIndexOptions): Promise<IndexEntry[]>;
  /** Capsule counts per derived status from the index (one small blob read). */
  countByStatus(): Promise<StatusCounts>;
  /** How many capsules the tree holds against how many the index counts (lib/store/index-coverage.ts: one month's tree after a write). */
  indexCoverage(): Promise<{ inTree: number; indexed: number }>;
  /** Retention at the tip: finished capsules past `retireAfterDays` leave it (tombstoned, kept in the history); see retireFinished. */
  retire(opts: { now: Date; retention: Retention }): Promise<RetireResult>;
  /** Rebuilds the derived index from the capsules themselves; commits only when it differs. */
  rebuildIndex(opts: { now: Date }): Promise<{ commit: string | null; changed: boolean; count: number }>;
  /** Git's own signature check of the last commit of the memory ref (or of `rev`, a commit of it) that changed each path, in one `git log` (lib/git/commit-signature.ts). */
  signaturesOf(paths: readonly string[], rev?: string): Promise<Map<string, SignatureCheck>>;
  /** The remote revisions sync set aside beside a capsule document this clone sealed (lib/store/foreign-revisions.ts). */
  foreignRevisions(documentPath: string): Promise<{ named: ForeignRevision[]; total: number }>;
  /** Batch read of capsule documents by full id (one `cat-file --batch`); missing ids are absent. */
  readTexts(ids: string[]): Promise<Map<string, string>>;
  /** The branch journal, newest first. */
  log(opts?: { limit?: number }): Promise<JournalEntry[]>;
  /** Ends the long-lived git processes. */
  close(): Promise<void>;
}
