import type { TextLimit } from '../resume/text-limit';

/** The memory-branch operations the hooks use (a structural subset of lib/store's MemoryStore). */
export interface HookStore {
  readonly commonDir: string;
  exists(): Promise<boolean>;
  writeCapsule(text: string, opts: { now: Date; op?: string; replace?: boolean }): Promise<{ id: string; commit: string | null; changed: boolean; redactions: ReadonlyArray<{ count: number }> }>;
  readCapsule(idOrPrefix: string): Promise<{ id: string; text: string; status: string }>;
  listIndex(opts?: { status?: readonly string[]; limit?: number }): Promise<
    Array<{ id: string; status: string; createdAt: string; trigger?: string; objective?: string; sessionId?: string }>
  >;
  /** Capsule counts per derived status, from the index (one small read). */
  countByStatus(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/** A transcript record as the JSONL reader yields it. */
export interface HookTranscriptRecord {
  line: number;
  data: Record<string, unknown>;
}

/**
 * What the hooks call into, passed in so handlers stay testable and each entry bundles only
 * what it uses. `lib/hooks/default-deps.ts` wires the real modules.
 */
export interface HookDeps {
  openStore: (opts: { cwd: string; env?: NodeJS.ProcessEnv }) => Promise<HookStore>;
  /** lib/transcript/jsonl.ts `parseTranscriptChunk`. */
  parseTranscriptChunk: (
    text: string,
    opts: { baseLine?: number; includeUnterminated?: boolean },
  ) => { records: HookTranscriptRecord[]; consumedBytes: number; lines: number };
  newCapsuleId: (now: Date) => string;
  /**
   * The config values the budget reads (lib/store `readConfigSnapshot`: capsule.*, from the
   * runtime dir's cache while the config files are unchanged). Absent: the budget asks git itself.
   */
  readGitConfig?: (opts: { cwd: string; env: NodeJS.ProcessEnv }) => Promise<Record<string, string>>;
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
    /** The host's injection limit (HostAdapter.injectionLimit). */
    limit?: TextLimit;
  }) => Promise<{ text: string; unavailable: string | null; capsuleId?: string | null; consumed?: boolean }>;
}
