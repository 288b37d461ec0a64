import { autosavesInFlight } from '../local-state/autosave-in-flight';
import type { LineageSignal } from '../local-state/lineage-signal';
import type { HookContext } from './run-hook';

/** How long a hook waits for an autosave in flight by default (the bound). */
export const AUTOSAVE_WAIT_MS = 2000;
const POLL_MS = 20;

/**
 * Waits until no Stop autosave of `only` (one session, or one client's lineage) is in flight,
 * at most `boundMs`; then goes on, and when it gave up says so in the error log
 * (AUTOSAVE_IN_FLIGHT). A hook that reads or consumes the memory branch calls it first, so a
 * Stop still committing in the background is not read past or folded twice at once. Resolves
 * at once (one directory read) when nothing is in flight. Never throws.
 */
export async function awaitAutosave(ctx: HookContext, only: { sessionId?: string; lineage?: string | null }, boundMs = AUTOSAVE_WAIT_MS): Promise<'none' | 'settled' | 'gave-up'> {
  const started = Date.now();
  let pending = autosavesInFlight(ctx.runtimeDir, ctx.now(), only);
  if (pending.length === 0) return 'none';
  while (Date.now() - started < boundMs) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    pending = autosavesInFlight(ctx.runtimeDir, ctx.now(), only);
    if (pending.length === 0) return 'settled';
  }
  ctx.warn('AUTOSAVE_IN_FLIGHT', `waited ${boundMs} ms for the autosave of session ${pending.map((m) => m.sessionId).join(', ')} (pid ${pending.map((m) => m.pid).join(', ')}) and went on without it`);
  return 'gave-up';
}

/** The lineage an in-flight marker names: the client process (`claude-<CLAUDE_PID>`), or null without a signal. */
export function lineageKey(signal: LineageSignal | null): string | null {
  return signal === null ? null : `${signal.host}-${signal.key}`;
}

/**
 * SessionEnd's bound: the host gives that hook ~1 s before it cuts it short (hooks.json: 2 s),
 * and its own fold must still fit.
 */
export const SESSION_END_WAIT_MS = 600;
