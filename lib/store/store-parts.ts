import type { IdentityStamp } from '../capsule/identity-fields';
import type { GitIdentity } from '../git/git-env';
import type { GitRunner } from '../git/git-runner';
import type { MemoryTree } from './memory-tree';

/** What every store operation works with: the runner, the tree reader, the ref and the committer. */
export interface StoreParts {
  git: GitRunner;
  tree: MemoryTree;
  ref: string;
  identity: GitIdentity;
  /** Who and where this store writes (the committer email, this clone's machine id, this worktree's id), stamped on every capsule. */
  stamp: (now: Date) => IdentityStamp;
  /** This clone's seal key, made on first need (lib/local-state/seal-key.ts); the store seals every capsule it writes with it. */
  sealKey: () => Uint8Array;
  /** Takes the local write lock of this ref (advisory; see `acquireWriteLock`). */
  lock: () => Promise<() => Promise<void>>;
  /** Throws MEMORY_REF_CHECKED_OUT when a worktree has the ref checked out (lib/git/checked-out.ts); run before any write. */
  guard?: () => Promise<void>;
  /** After a write: packs loose objects and rolls small packs up once they pile up (see scheduleHousekeeping); never waited for. */
  housekeeping: () => void;
  /** Whether imports keep the pack fast-import wrote (see keepsImportPacks): decided once, on the first write. */
  keepPack: () => boolean;
}
