import { isCapsuleError } from '../errors/capsule-error';
import { parseCapsule } from '../capsule/parse';
import { readSummaryState, STATE_BLOCK_OPEN } from '../transcript/summary-state';
import { redactKeptText } from '../redact/redact-secrets';
import { mergeAutosave } from '../work-state/autosave-merge';
import { commitDocument, foldAutosave } from './autosave';
import type { HookDeps } from './hook-deps';
import { lazyStore } from './lazy-store';
import type { HookSpec } from './run-hook';
import { readSessionState } from '../local-state/session-state';

/**
 * PostCompact: reads the state block PreCompact asked the summariser for back from
 * `compact_summary` (redacted first, from its last state block to its end, before anything cuts
 * a field to 240 characters or splits a list on `;`: a secret straddling a cut would keep its
 * head; then bounded and content-gated) and folds it into the session's pre-compact checkpoint and its autosave, so what the
 * model knew at compaction reaches the next resume. The resume after compaction has already run
 * (SessionStart(compact) fires first); a later /clear or a carried-forward session reads it.
 * No block, nothing written.
 */
export function makePostCompactHook(deps: HookDeps): HookSpec<'PostCompact'> {
  return {
    event: 'PostCompact',
    handle: async (input, ctx) => {
      if (!input.session_id || typeof input.compact_summary !== 'string') return;
      const events = readSummaryState(redactedStateTail(input.compact_summary));
      if (events.length === 0) return;
      const store = lazyStore(deps, ctx);
      try {
        await foldAutosave(store, { sessionId: input.session_id, transcriptPath: input.transcript_path, extraEvents: events }, ctx, deps);
        const checkpointId = readSessionState(ctx.runtimeDir, input.session_id).checkpointId;
        if (checkpointId === undefined) return;
        const s = await store.get();
        let previous;
        try {
          previous = parseCapsule((await s.readCapsule(checkpointId)).text).doc;
        } catch (err) {
          if (isCapsuleError(err, 'NOT_FOUND')) return;
          throw err;
        }
        if (previous === null) return;
        const now = ctx.now();
        const merged = mergeAutosave(previous, events, { now, offsetMinutes: -now.getTimezoneOffset(), sessionId: input.session_id, newId: checkpointId });
        if (merged.changed) await commitDocument(s, merged.doc, { op: 'checkpoint-summary', replace: true }, ctx, deps);
      } finally {
        store.release(); // not awaited: the hook's process exits next (lazy-store.ts)
      }
    },
  };
}

/** The summary from its last state block on, redacted as text that is kept; empty when it has no block. */
function redactedStateTail(summary: string): string {
  const open = summary.lastIndexOf(STATE_BLOCK_OPEN);
  return open === -1 ? '' : redactKeptText(summary.slice(open)).text;
}
