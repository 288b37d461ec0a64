import { join } from 'node:path';
import type { HookDeps, HookStore } from './hook-deps';
import { renderOrientation } from './orientation';
import type { HookContext, HookSpec } from './run-hook';
import { BOOT_RECEIPT_FILE, readCompactMarker, removeRuntimeFile, COMPACT_MARKER_FILE, writeRuntimeJson } from './runtime-files';
import { readSessionState, writeSessionState } from './session-state';

/**
 * SessionStart: writes the boot receipt, then `clear` / `compact` run the resume procedure and
 * `startup` / `resume` give a short orientation. After an automatic compaction the session
 * continues under a new id: it is linked to the pre-compact checkpoint through its state.
 */
export function makeSessionStartHook(deps: HookDeps): HookSpec<'SessionStart'> {
  return {
    event: 'SessionStart',
    handle: async (input, ctx) => {
      const receiptPath = writeBootReceipt(ctx, input.session_id, input.source);
      if (input.source === 'compact' && input.session_id) linkToCheckpoint(ctx, input.session_id);
      const store = await deps.openStore({ cwd: ctx.projectDir, env: ctx.env });
      try {
        if (!(await store.exists())) return;
        const resumes = input.source === 'clear' || input.source === 'compact';
        if (resumes && deps.runResume) {
          const text = await deps.runResume({ store, now: ctx.now(), sessionId: input.session_id, receiptPath, projectDir: ctx.projectDir, consume: true });
          return text ? { additionalContext: text } : undefined;
        }
        const orientation = await orient(store, ctx);
        return orientation ? { additionalContext: orientation } : undefined;
      } finally {
        await store.close();
      }
    },
  };
}

async function orient(store: HookStore, ctx: HookContext): Promise<string | null> {
  const active = await store.listIndex({ status: ['active'] });
  const newest = active[0];
  return newest ? renderOrientation(newest, ctx.now(), active.length) : null;
}

/** Best effort: a failed write leaves the previous receipt, which the resume runtime only cross-checks. */
function writeBootReceipt(ctx: HookContext, sessionId: string | undefined, source: string): string {
  const path = join(ctx.runtimeDir, BOOT_RECEIPT_FILE);
  try {
    writeRuntimeJson(ctx.runtimeDir, BOOT_RECEIPT_FILE, { session_id: sessionId ?? null, source, written_at: ctx.now().toISOString() });
  } catch (err) {
    ctx.warn('BOOT_RECEIPT_UNWRITABLE', err instanceof Error ? err.message : String(err));
  }
  return path;
}

function linkToCheckpoint(ctx: HookContext, sessionId: string): void {
  const marker = readCompactMarker(ctx.runtimeDir);
  if (marker === null) return;
  if (marker.sessionId !== sessionId) {
    writeSessionState(ctx.runtimeDir, sessionId, { ...readSessionState(ctx.runtimeDir, sessionId), parentCapsuleId: marker.capsuleId });
  }
  removeRuntimeFile(ctx.runtimeDir, COMPACT_MARKER_FILE);
}
