import { redactHostText } from '../hosts/redact-records';
import { checkCoordination } from '../resume-runtime/coordination-guard';
import type { HookDeps, HookStore } from './hook-deps';
import { readHookGitConfig } from './hook-git-config';
import { noteCodePath } from './code-path';
import { renderNothingToLoad, renderOrientation } from '../resume/orientation';
import { firstInScope, sessionScope } from '../resume-runtime/session-scope';
import { readRepoHead } from '../git/repo-head';
import type { LineageSignal } from '../local-state/lineage-signal';
import type { HookContext, HookSpec } from './run-hook';
import { BOOT_RECEIPT_FILE, readCompactMarker, removeRuntimeFile, COMPACT_MARKER_FILE, writeRuntimeJson } from '../local-state/runtime-files';
import { continueFrom } from '../local-state/continuation';
import { openBudgetWindow } from '../local-state/budget-state';
import { isCapsuleError } from '../errors/capsule-error';
import { noteLiveSession } from './hand-over';
import { readLineageRecord, type LineageRecord } from '../local-state/lineage-record';
import { isUsableSignal } from '../local-state/lineage-signal';
import type { CapsuleDocument } from '../capsule/types';
import { awaitAutosave, lineageKey } from './await-autosave';
import { foldClearedSession } from './fold-cleared';

/**
 * SessionStart: writes the boot receipt, then `clear` / `compact` run the resume procedure and
 * `startup` / `resume` give a short orientation. The resume takes the hand-over the ended
 * session left under the host's lineage signal (`CLAUDE_PID`; Codex: its client process), so
 * it resumes that session's own work; `startup` / `resume` start a new lineage for the client
 * process. The session that goes on from a resumed capsule folds its work on top of it (its
 * state is seeded with the document). Without a signal, a compacted session is linked to the
 * pre-compact checkpoint by its marker.
 */
export function makeSessionStartHook(deps: HookDeps): HookSpec<'SessionStart'> {
  return {
    event: 'SessionStart',
    redact: redactHostText,
    handle: async (input, ctx) => {
      const sessionId = typeof input.session_id === 'string' && input.session_id !== '' ? input.session_id : undefined;
      const signal = ctx.host.lineageSignal(ctx.env);
      // A host whose source cannot tell a /clear from a start (Copilot) decides by its client's lineage.
      const source = ctx.host.sessionSource ? ctx.host.sessionSource(input.source, sessionId, lineageRecordOf(ctx, signal)) : input.source;
      writeBootReceipt(ctx, sessionId, source);
      const resumes = (source === 'clear' || source === 'compact') && deps.runResume !== undefined;
      if (!resumes && sessionId) noteLiveSession(ctx, signal, sessionId, source === 'startup' || source === 'resume');
      noteCodePath(source === 'clear' || source === 'compact' ? 'resume' : 'orient'); // see lib/hooks/code-path.ts
      // The ended session's Stop may still be committing its autosave: the resume reads it.
      if (resumes) await awaitAutosave(ctx, { lineage: lineageKey(signal) });
      // Or it has not started yet (Stop runs in the background): the resume must cover the
      // cleared session's last turn all the same. A compaction needs no such proof: PreCompact,
      // which the client waits for, folded the session into the checkpoint this resume reads.
      if (resumes && source === 'clear') await foldClearedSession(ctx, deps, signal, sessionId);
      // The resume starts first (it reads the receipt just written), so its git process starts
      // while the budget bookkeeping below runs; the budget never throws.
      const resuming = resumes
        ? deps.runResume!({ cwd: ctx.projectDir, env: ctx.env, now: ctx.now(), sessionId: input.session_id, consume: true, runtimeDir: ctx.runtimeDir, event: 'SessionStart', signal, lineage: 'take', limit: ctx.host.injectionLimit, repo: ctx.repo })
        : null;
      try {
        // Refreshes the config cache UserPromptSubmit's budget reads (it starts no git of its own).
        await readHookGitConfig(ctx);
        // A compaction starts a new budget window; compact payloads also name the model.
        if (sessionId) openWindow(ctx, sessionId, source, (input as { model?: unknown }).model);
        // The marker is one per repository: only a host without a lineage signal falls back on it.
        if (source === 'compact' && sessionId && signal === null) linkToCheckpoint(ctx, sessionId);
      } catch (err) {
        await resuming?.catch(() => undefined); // the resume commits before it returns: let it finish
        throw err;
      }
      if (resuming) {
        const result = await resuming;
        // The session that goes on from a resumed capsule continues it: its autosave names it as parent.
        if (sessionId && result.consumed && result.capsuleId) linkToResumed(ctx, sessionId, result.capsuleId, result.doc);
        // No memory branch, or nothing on it yet: a fresh install, not worth a word.
        if (result.unavailable === 'no-memory-branch' || result.unavailable === 'no-capsules') return;
        return result.text ? { additionalContext: result.text } : undefined;
      }
      // A live outside conductor owns this boot: no orientation of ours either (docs/supervisor.md "The coordination state").
      const guard = await checkCoordination(ctx.env, ctx.projectDir);
      if (guard.defer) return { additionalContext: guard.line };
      const store = await deps.openStore({ cwd: ctx.projectDir, env: ctx.env, repo: ctx.repo });
      try {
        if (!(await store.exists())) return;
        const orientation = await orient(store, ctx, { sessionId, source, signal });
        return orientation ? { additionalContext: orientation } : undefined;
      } finally {
        // Not awaited: cat-file exits by itself once its input is closed, and the hook's process exits next.
        store.close().catch(() => undefined);
      }
    },
  };
}

/** Active index rows the orientation looks at, newest first: it must not slow down as capsules pile up. */
export const ORIENTATION_ROWS = 64;

/** Documents the orientation reads at most for their seal: past them it points at nothing rather than at a capsule the resume may refuse. */
export const ORIENTATION_SEAL_READS = 4;

/**
 * The capsule this session may load, as `git capsule resume` run from it would scope it: after
 * `claude --resume` the session's own capsule first; otherwise the best in scope (this worktree
 * and branch, this author on this machine, a handoff to this author), never another live
 * session's (its whole lineage), another author's or another machine's. Index rows place each
 * capsule; the one placed first in a tier of ours is read for its seal (identity fields can be
 * copied by anyone who pushes), so the orientation never points at a copy the resume refuses.
 */
async function orient(store: HookStore, ctx: HookContext, s: { sessionId: string | undefined; source: string; signal: LineageSignal | null }): Promise<string | null> {
  const [rows, counts] = await Promise.all([store.listIndex({ status: ['active'], limit: ORIENTATION_ROWS }), store.countByStatus()]);
  if (rows.length === 0) return null;
  const now = ctx.now();
  const active = Math.max(counts.active ?? 0, rows.length);
  const me = store.writerIdentity(now);
  const sealedHere = (text: string) => store.sealOf(text) === 'valid';
  if (s.source === 'resume' && s.sessionId !== undefined) {
    // A session id is data a synced capsule could copy: the session's own capsule is written on this machine, and sealed here.
    const own = rows.find((r) => r.sessionId === s.sessionId && r.machine === me.machine);
    const text = own ? (await store.readTexts([own.id])).get(own.id) : undefined;
    if (own && text !== undefined && sealedHere(text)) return renderOrientation(own, now, active, { own: true });
  }
  const branch = readRepoHead(ctx.gitDir, ctx.commonDir).branch;
  const here = { author: me.author, machine: me.machine, worktree: me.worktree, ...(branch ? { branch } : {}) };
  const { scope } = sessionScope({ runtimeDir: ctx.runtimeDir, signal: s.signal, sessionId: s.sessionId, lineage: 'read', now, here, sealedHere });
  const judged: Array<(typeof rows)[number] & { sealed?: boolean }> = rows.map((r) => ({ ...r }));
  for (let reads = 0; ; reads++) {
    const first = firstInScope(judged, scope, now);
    // Placed again with its seal known: a copy of our identity drops out of our tiers (placeInScope's `not-sealed`).
    if (first === null || first.row.sealed !== undefined) return first ? renderOrientation(first.row, now, active) : renderNothingToLoad(active);
    if (reads === ORIENTATION_SEAL_READS) return renderNothingToLoad(active);
    const text = (await store.readTexts([first.row.id])).get(first.row.id);
    first.row.sealed = text !== undefined && sealedHere(text);
  }
}

/** Best effort: a failed write leaves the previous receipt, which the resume runtime only cross-checks. */
function writeBootReceipt(ctx: HookContext, sessionId: string | undefined, source: string): void {
  try {
    writeRuntimeJson(ctx.runtimeDir, BOOT_RECEIPT_FILE, { session_id: sessionId ?? null, source, written_at: ctx.now().toISOString() });
  } catch (err) {
    ctx.warn('BOOT_RECEIPT_UNWRITABLE', err instanceof Error ? err.message : String(err));
  }
}

function linkToCheckpoint(ctx: HookContext, sessionId: string): void {
  const marker = readCompactMarker(ctx.runtimeDir);
  if (marker === null) return;
  if (marker.sessionId !== sessionId) continueFrom(ctx.runtimeDir, sessionId, marker.capsuleId, undefined, { keepExisting: false });
  removeRuntimeFile(ctx.runtimeDir, COMPACT_MARKER_FILE);
}

/**
 * Best effort, after the resume committed (a failure here must not hide its text): a compacted
 * session keeps the checkpoint it was just linked to. A session with no autosave of its own yet
 * is seeded with the resumed document, so its first autosave carries that state forward.
 */
function linkToResumed(ctx: HookContext, sessionId: string, capsuleId: string, doc: CapsuleDocument | undefined): void {
  try {
    continueFrom(ctx.runtimeDir, sessionId, capsuleId, doc, { keepExisting: true });
  } catch (err) {
    ctx.warn('SESSION_STATE_UNWRITABLE', err instanceof Error ? err.message : String(err));
  }
}



/** The lineage record of the hook's client process, or null (no signal, none written, unreadable). */
function lineageRecordOf(ctx: HookContext, signal: LineageSignal | null): LineageRecord | null {
  try {
    return isUsableSignal(signal) ? readLineageRecord(ctx.runtimeDir, signal) : null;
  } catch {
    return null;
  }
}

/** The session's budget window (openBudgetWindow); a failure is logged with its code and the hook goes on. */
function openWindow(ctx: HookContext, sessionId: string, source: string | undefined, model: unknown): void {
  try {
    openBudgetWindow(ctx.runtimeDir, sessionId, { source, model });
  } catch (err) {
    ctx.warn(isCapsuleError(err) ? err.code : 'BUDGET_FAILED', `budget check skipped: ${err instanceof Error ? err.message : String(err)}`);
  }
}
