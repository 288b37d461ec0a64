import { redactHostText } from '../hosts/redact-records';
import { STATE_BLOCK_REQUEST } from '../transcript/summary-state';
import { checkpointFrom } from '../work-state/autosave-merge';
import { commitDocument, foldAutosave } from './autosave';
import type { HookDeps } from './hook-deps';
import { lazyStore } from './lazy-store';
import type { HookSpec } from './run-hook';
import { leaveHandOver } from './hand-over';
import { COMPACT_MARKER_FILE, writeRuntimeJson, type CompactMarker } from '../local-state/runtime-files';
import { readSessionState, writeSessionState } from '../local-state/session-state';
import { mintCapsuleId } from '../store/random-bytes';
import { awaitAutosave } from './await-autosave';
import { markFold } from './mark-fold';
import { leavePendingContext } from '../local-state/pending-context';
import type { HookContext } from './run-hook';
import type { LineageSignal } from '../local-state/lineage-signal';

/**
 * PreCompact: folds the session so far, commits it as a checkpoint capsule
 * (`trigger: pre-compact`), leaves the hand-over under the host's lineage signal (and, for a
 * host without one, a marker) so the session that continues after compaction resumes and links
 * to it, and prints what the host appends to the summary prompt: a line naming the checkpoint,
 * and the request for a short state block that PostCompact reads back. A host that runs nothing
 * after a compaction (HostAdapter.resumeAfterCompact `next-prompt`) gets the resume rendered
 * here, from the checkpoint, for the session's next prompt to inject.
 */
export function makePreCompactHook(deps: HookDeps): HookSpec<'PreCompact'> {
  return {
    event: 'PreCompact',
    redact: redactHostText,
    handle: async (input, ctx) => {
      if (!input.session_id) return;
      const signal = ctx.host.lineageSignal(ctx.env);
      // First, so a checkpoint that fails still leaves the lineage for the session after compaction.
      if (signal) leaveHandOver(ctx, signal, input.session_id, 'compact');
      await awaitAutosave(ctx, { sessionId: input.session_id }); // a Stop still folding this session
      // And one that starts late (in the background) waits for this fold instead of racing it.
      const unmark = markFold(ctx, input.session_id, signal);
      const store = lazyStore(deps, ctx);
      try {
        const auto = await foldAutosave(store, { sessionId: input.session_id, transcriptPath: input.transcript_path, always: true }, ctx, deps);
        if (auto === null) return;
        const now = ctx.now();
        const id = mintCapsuleId(now);
        await commitDocument(await store.get(), checkpointFrom(auto.doc, { id, now, offsetMinutes: -now.getTimezoneOffset() }), { op: 'checkpoint', replace: false }, ctx, deps);
        const marker: CompactMarker = { capsuleId: id, sessionId: input.session_id, trigger: input.trigger, at: now.toISOString() };
        writeRuntimeJson(ctx.runtimeDir, COMPACT_MARKER_FILE, marker);
        if (signal) leaveHandOver(ctx, signal, input.session_id, 'compact', id);
        writeSessionState(ctx.runtimeDir, input.session_id, { ...readSessionState(ctx.runtimeDir, input.session_id), checkpointId: id });
        if (ctx.host.resumeAfterCompact === 'next-prompt') await leaveResumeForNextPrompt(deps, ctx, input.session_id, signal);
        return {
          plainText: `Keep this line verbatim in the summary: git-capsule checkpoint ${id} holds this session's work state (files, errors, next action); \`git capsule show ${id}\` prints it.\n${STATE_BLOCK_REQUEST}`,
        };
      } finally {
        store.release(); // not awaited: the hook's process exits next (lazy-store.ts)
        unmark();
      }
    },
  };
}

/**
 * Renders the resume the session after this compaction needs (its lineage taken, the
 * checkpoint consumed, as SessionStart(compact) would) and leaves it for its next prompt.
 * Best effort: a failure is logged, and the checkpoint stays for `git capsule resume`.
 */
async function leaveResumeForNextPrompt(deps: HookDeps, ctx: HookContext, sessionId: string, signal: LineageSignal | null): Promise<void> {
  if (deps.runResume === undefined) return;
  try {
    const result = await deps.runResume({ cwd: ctx.projectDir, env: ctx.env, now: ctx.now(), sessionId, consume: true, runtimeDir: ctx.runtimeDir, event: 'PreCompact', signal, lineage: 'take', limit: ctx.host.injectionLimit });
    if (result.text) leavePendingContext(ctx.runtimeDir, sessionId, result.text, ctx.now());
  } catch (err) {
    ctx.warn('SESSION_STATE_UNWRITABLE', err instanceof Error ? err.message : String(err));
  }
}
