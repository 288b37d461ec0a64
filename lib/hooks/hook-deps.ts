import type { CapsuleDocument } from '../capsule/types';
import type { IdentityStamp } from '../capsule/identity-fields';
import type { FoundRepository } from '../local-state/cached-config';
import type { LineageSignal } from '../local-state/lineage-signal';
import type { TextLimit } from '../resume/text-limit';
import type { WriteOptions } from '../store/types';

/** The memory-branch operations the hooks use (a structural subset of lib/store's MemoryStore). */
export interface HookStore {
  readonly commonDir: string;
  exists(): Promise<boolean>;
  writeCapsule(text: string, opts: WriteOptions): Promise<{ id: string; commit: string | null; changed: boolean; redactions: ReadonlyArray<{ count: number }> }>;
  readCapsule(idOrPrefix: string): Promise<{ id: string; text: string; status: string }>;
  listIndex(opts?: { status?: readonly string[]; limit?: number }): Promise<
    Array<{ id: string; status: string; createdAt: string; trigger?: string; objective?: string; sessionId?: string; author?: string; machine?: string; worktree?: string; branch?: string; handoffTo?: string; autosaveTag?: true }>
  >;
  /** Who and where this store writes (committer email, machine, worktree): the orientation scopes by it. */
  writerIdentity(now: Date): IdentityStamp;
  /** Capsule counts per derived status, from the index (one small read). */
  countByStatus(): Promise<Record<string, number>>;
  /** Batch read of capsule documents by full id; missing ids are absent. */
  readTexts(ids: string[]): Promise<Map<string, string>>;
  /** Whether this clone sealed a document (its seal key): identity fields can be copied, the seal cannot. */
  sealOf(text: string): 'valid' | 'absent' | 'invalid';
  close(): Promise<void>;
}

/**
 * The two things tests of the hooks replace: the store (to prove a hook never opens it) and the
 * resume runtime (to see what SessionStart asks of it). Everything else a handler imports
 * directly. `lib/hooks/default-deps.ts` wires the real modules.
 */
export interface HookDeps {
  /** `repo`: the repository as the hook's runner found it (located and its config read once per run). */
  openStore: (opts: { cwd: string; env?: NodeJS.ProcessEnv; repo?: FoundRepository }) => Promise<HookStore>;
  /**
   * The resume runtime (lib/resume-runtime `runResume`: coordination guard, select, render,
   * consume) for SessionStart(clear|compact). Absent until wired: SessionStart then orients.
   */
  runResume?: (opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    now: Date;
    /** The payload's session_id as received: the runtime judges a non-string itself. */
    sessionId: unknown;
    consume: boolean;
    runtimeDir?: string | null;
    event?: string;
    /** The host's lineage signal and what to do with it (lib/resume-runtime/run-resume.ts). */
    signal?: LineageSignal | null;
    lineage?: 'take' | 'read';
    /** The host's injection limit (HostAdapter.injectionLimit). */
    limit?: TextLimit;
    /** The repository as the hook's runner found it, for the store the resume opens. */
    repo?: FoundRepository;
  }) => Promise<{ text: string; unavailable: string | null; capsuleId?: string | null; consumed?: boolean; doc?: CapsuleDocument }>;
}
