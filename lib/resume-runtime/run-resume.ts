import { join, resolve } from 'node:path';
import type { CapsuleDocument } from '../capsule/types';
import { isCapsuleError } from '../errors/capsule-error';
import type { ErrorCode } from '../errors/error-codes';
import { readRepoHead } from '../git/repo-head';
import { noteCarried, type Lineage } from '../local-state/lineage-record';
import { rebaseOn } from '../local-state/continuation';
import type { LineageSignal } from '../local-state/lineage-signal';
import type { SelectionScope } from '../select/scope';
import type { Consumption } from '../resume/capsule-data';
import type { HeadDrift } from '../resume/head-drift';
import { renderResume } from '../resume/render-resume';
import { resolveSessionAuthority } from '../resume/session-authority';
import type { TextLimit } from '../resume/text-limit';
import type { SelectedCapsule, Selection, UnavailableReason } from '../select/types';
import { openStore } from '../store/open-store';
import type { MemoryStore } from '../store/types';
import { readBootReceipt } from '../local-state/boot-receipt';
import type { FoundRepository } from '../local-state/cached-config';
import { checkCoordination } from './coordination-guard';
import { appendErrorLines, type ErrorLogEntry } from '../local-state/error-log';
import { resolveStateDir } from '../local-state/state-dir';
import { loadLifecycleExtension } from './extension-loader';
import { measureHeadDrift } from './head-drift-probe';
import { findProjectRoot } from './project-root';
import { noteSignatures, selectFromStore, unavailableFromError, wantsSignatures } from './select-from-store';
import { sessionScope } from './session-scope';

/** Options of one resume: the SessionStart(clear|compact) hook and `git capsule resume` both call it. */
export interface RunResumeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: Date;
  /** The hook payload's `session_id` as received: a non-string is invalid, never coerced. */
  sessionId: unknown;
  /** Write the `resumed` status event before returning the text (false: `--no-consume`). */
  consume: boolean;
  /** Resume this capsule (id or unambiguous prefix) instead of the newest valid one. */
  capsuleId?: string;
  /** The runtime state dir; default `CAPSULE_STATE_DIR`, else `<git-common-dir>/capsule`. */
  runtimeDir?: string | null;
  /** Names the caller in error-log lines; default `resume`. */
  event?: string;
  /** The host's lineage signal (lib/hosts/<host>): the same in every hook of one client process. */
  signal?: LineageSignal | null;
  /**
   * `take`: SessionStart(clear|compact) takes the hand-over the ended session left and resumes
   * that lineage; `read`: a verb run inside a session resumes that session's own lineage;
   * absent: no lineage, scoping only. Ignored with `capsuleId` (taken on purpose).
   */
  lineage?: 'take' | 'read';
  /** The host's injection limit (the hook's adapter); default 10,000 characters. */
  limit?: TextLimit;
  /** The repository as the caller already found it (a hook's runner): the store does not locate it or read its config again. */
  repo?: FoundRepository;
  /**
   * The session this runs inside goes on from what it loads (`git capsule resume` from the agent's
   * shell): once the capsule is consumed, the session's autosave is re-based on it and the autosave
   * it had before is set aside (`paused`). Needs a session id.
   */
  rebase?: boolean;
}

/** The text to inject and what happened. */
export interface RunResumeResult {
  text: string;
  /** The loaded capsule's id, or null when none was loaded. */
  capsuleId: string | null;
  consumed: boolean;
  /** True when the coordination guard deferred to an external conductor. */
  deferred: boolean;
  unavailable: UnavailableReason | null;
  /** What the injection limit (10,000 characters, or bytes on Codex) dropped, or null. */
  truncated: string | null;
  /** The loaded capsule's document: the session that goes on folds its events on top of it. */
  doc?: CapsuleDocument;
  /** The lineage selection looked for, when the host gave one. */
  lineage?: Lineage | null;
  /** The runtime state dir this resume used (null outside a repository). */
  runtimeDir?: string | null;
  /** With `rebase`: the session's autosave now goes on from the loaded capsule, and the one it set aside; or why not. */
  rebased?: { setAside: string | null } | { failed: string };
}

/** Sessions without a usable id still consume; the event names this writer instead. */
export const UNKNOWN_SESSION_WRITER = 'unknown-session';

/**
 * The resume procedure: coordination guard first, then select from the memory branch, render,
 * and consume (the `resumed` event is committed before the text is returned). Store problems
 * (no branch, unreadable branch, bad memory root) become `unavailable` in the text; this never
 * throws for them.
 *
 * @example const { text } = await runResume({ cwd, env: process.env, now: new Date(), sessionId: input.session_id, consume: true });
 */
export async function runResume(opts: RunResumeOptions): Promise<RunResumeResult> {
  const event = opts.event ?? 'resume';
  const guard = await checkCoordination(opts.env, opts.cwd);
  if (guard.defer) {
    return { text: `${guard.line}\n`, capsuleId: null, consumed: false, deferred: true, unavailable: null, truncated: null };
  }
  let store: MemoryStore | null = null;
  let selection: Selection;
  let lineage: Lineage | null = null;
  let runtimeDir = resolveRuntimeDir(opts, null);
  try {
    store = await openStore({ cwd: opts.cwd, env: opts.env, repo: opts.repo });
    runtimeDir = resolveRuntimeDir(opts, store);
    // Taken on purpose (--id): no lineage and no scope; otherwise only this session's, or this author's here.
    const found = opts.capsuleId === undefined ? findScope(opts, store, runtimeDir) : null;
    lineage = found?.lineage ?? null;
    // Before the first scoped selection after an upgrade: what this clone wrote before seals existed is ours (once per clone).
    if (found) await store.sealOwnHistory(opts.now);
    selection = await selectFromStore(store, { now: opts.now, capsuleId: opts.capsuleId, ...(found ? { scope: found.scope } : {}) });
  } catch (err) {
    selection = unavailableFromError(err);
  }
  try {
    const projectDir = store?.repoDir ?? (await findProjectRoot(opts.cwd, opts.env));
    const hookId = opts.sessionId;
    const receipt = typeof hookId === 'string' && hookId.trim() !== '' && runtimeDir !== null ? await readBootReceipt(runtimeDir) : null;
    const session = resolveSessionAuthority(hookId, receipt);
    let consumption = { state: 'kept', why: 'no-consume' } as Consumption; // set by consume(), below
    let rebased: RunResumeResult['rebased'];
    const logLines: ErrorLogEntry[] = [];
    const consume = async (capsule: SelectedCapsule, live: MemoryStore, whileRunning: () => void) => {
      const writer = session.sessionId ?? UNKNOWN_SESSION_WRITER;
      try {
        await live.setStatus(capsule.id, 'resumed', { writer, now: opts.now, whileRunning });
        consumption = { state: 'consumed', writer };
        // The lineage now stands on it: a next session that saves nothing is handed it again.
        if (runtimeDir !== null && opts.signal) noteCarriedSafely(runtimeDir, opts.signal, capsule.id, opts.now, logLines);
        if (opts.rebase && runtimeDir !== null && session.sessionId !== null) {
          rebased = await rebaseSession(live, { runtimeDir, sessionId: session.sessionId, capsule, now: opts.now }, logLines);
        }
      } catch (err) {
        const code = isCapsuleError(err) ? err.code : 'INTERNAL';
        consumption = { state: 'failed', code };
        logLines.push({ code: 'RESUME_CONSUME_FAILED', message: `capsule ${capsule.id}: [${code}] ${err instanceof Error ? err.message : String(err)}` });
      }
    };
    // The ledger's signatures are git's view of the tip selected from: read before the consume can move the branch.
    const tip = store && wantsSignatures(selection.rejected) ? await store.tip().catch(() => null) : null;
    // The consume's reads go first on the object reader; once fast-import has its commit, the
    // HEAD drift walk, the signature check and the extension run while git writes it. One after
    // another they cost the sum of their waits; the text is still rendered only once the consume
    // has committed or failed.
    let handed!: () => void;
    const commitHanded = new Promise<void>((resolve) => (handed = resolve));
    const consuming = selection.capsule && opts.consume && store ? consume(selection.capsule, store, handed) : undefined;
    if (consuming) await Promise.race([commitHanded, consuming]);
    const [extension, headDrift] = await Promise.all([
      loadLifecycleExtension(projectDir),
      selection.capsule && store ? measureHeadDrift(store, opts.env, selection.capsule.fields.repo_head) : Promise.resolve<HeadDrift>({ state: 'no-repo-head' }),
      store && tip !== null ? noteSignatures(store, selection.rejected, tip) : undefined,
      consuming,
    ]);
    const notices = guard.notice === null ? [] : [guard.notice];
    const rendered = renderResume({ now: opts.now, selection: selection!, session, headDrift, extension, consumption, notices, lineage, limit: opts.limit });
    for (const line of rendered.diagnostics) logLines.push({ code: 'LIFECYCLE_EXTENSION', message: line });
    for (const notice of notices) logLines.push({ code: 'COORDINATION_STATE_INVALID', message: notice });
    // A missing branch or an empty one is a fresh install, not a fault; these two are faults.
    if (selection.unavailable && (selection.unavailable.reason === 'bad-memory-root' || selection.unavailable.reason === 'memory-branch-unreadable')) {
      logLines.push({ code: unavailableCode(selection.unavailable.reason), message: selection.unavailable.detail ?? selection.unavailable.reason });
    }
    appendErrorLines(runtimeDir, logLines, { now: opts.now, event });
    return {
      text: rendered.text,
      capsuleId: selection.capsule?.id ?? null,
      consumed: consumption.state === 'consumed',
      deferred: false,
      unavailable: selection.unavailable?.reason ?? null,
      truncated: rendered.truncated,
      ...(selection.capsule ? { doc: selection.capsule.doc } : {}),
      lineage,
      runtimeDir,
      ...(rebased === undefined ? {} : { rebased }),
    };
  } finally {
    // Not awaited: cat-file exits by itself once its input is closed (CatFileBatch.close), and the
    // caller (a hook, the CLI) is done with git; waiting for git's exit took ~2.6 ms of every hook.
    store?.close().catch(() => undefined);
  }
}

/** Whose capsule this resume may take (session-scope.ts), with who and where this store writes and this worktree's branch. */
function findScope(opts: RunResumeOptions, store: MemoryStore, runtimeDir: string | null): { scope: SelectionScope; lineage: Lineage | null } {
  const me = store.writerIdentity(opts.now);
  const branch = readRepoHead(store.gitDir, store.commonDir).branch;
  const here = { author: me.author, machine: me.machine, worktree: me.worktree, ...(branch ? { branch } : {}) };
  return sessionScope({ runtimeDir, signal: opts.signal ?? null, sessionId: opts.sessionId, ...(opts.lineage ? { lineage: opts.lineage } : {}), now: opts.now, here, sealedHere: (text) => store.sealOf(text) === 'valid' });
}

/**
 * The session goes on from the capsule it loaded: its state is re-based first (so its next fold
 * starts from the loaded document even if what follows fails), then the autosave it had is set
 * aside as `paused`: kept and listed, never resumed automatically, so its earlier work cannot
 * come back as the objective of a later resume of this lineage. Failures are logged, never thrown:
 * the capsule is already consumed and its text must reach the agent.
 */
async function rebaseSession(store: MemoryStore, o: { runtimeDir: string; sessionId: string; capsule: SelectedCapsule; now: Date }, logLines: ErrorLogEntry[]): Promise<NonNullable<RunResumeResult['rebased']>> {
  let setAside: string | null;
  try {
    setAside = rebaseOn(o.runtimeDir, o.sessionId, o.capsule.id, o.capsule.doc);
  } catch (err) {
    const message = `session ${o.sessionId} could not be re-based on ${o.capsule.id}: ${err instanceof Error ? err.message : String(err)}`;
    logLines.push({ code: 'SESSION_STATE_UNWRITABLE', message });
    return { failed: message };
  }
  if (setAside === null) return { setAside };
  try {
    await store.setStatus(setAside, 'paused', { writer: o.sessionId, now: o.now });
  } catch (err) {
    // A status never moves backwards: an autosave something already consumed or resolved is set aside anyway.
    if (!isCapsuleError(err, 'STATUS_BACKWARD') && !isCapsuleError(err, 'NOT_FOUND')) {
      const message = `the autosave ${setAside} this session leaves could not be set aside: ${err instanceof Error ? err.message : String(err)}`;
      logLines.push({ code: isCapsuleError(err) ? err.code : 'INTERNAL', message });
      return { failed: message };
    }
  }
  return { setAside };
}

function noteCarriedSafely(runtimeDir: string, signal: LineageSignal, id: string, now: Date, logLines: ErrorLogEntry[]): void {
  try {
    noteCarried(runtimeDir, signal, id, now);
  } catch (err) {
    logLines.push({ code: 'LINEAGE_RECORD_UNWRITABLE', message: err instanceof Error ? err.message : String(err) });
  }
}

function resolveRuntimeDir(opts: RunResumeOptions, store: MemoryStore | null): string | null {
  if (opts.runtimeDir !== undefined) return opts.runtimeDir;
  return resolveStateDir({ env: opts.env, commonDir: store?.commonDir ?? null, workTree: store?.repoDir ?? null });
}

function unavailableCode(reason: UnavailableReason): ErrorCode {
  return reason === 'bad-memory-root' ? 'MEMORY_ROOT' : 'MEMORY_BRANCH_UNREADABLE';
}
