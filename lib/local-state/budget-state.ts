import { lstatSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CapsuleError } from '../errors/capsule-error';
import { STATE_FILES, statePath } from './state-files';
import type { BudgetFlags } from '../budget/decide';
import type { PointsCache } from '../budget/resolve-budget';
import { readPrivateFile, writePrivateFile } from './private-file';

/** What the budget keeps per session in the runtime dir (never committed). */
export interface SessionBudgetState extends BudgetFlags {
  /** Bumped by SessionStart(compact): the window ordinal within the session. */
  windowOrdinal: number;
  /** The last model seen, for when the newest record (a compaction) names none. */
  lastModel: string | null;
  /** The window the status line last reported for a model (it knows `[1m]` sessions; the transcript may not). */
  hostWindow: { model: string; tokens: number } | null;
  pointsCache: PointsCache | null;
  /** The last reason logged (unresolvable point, switch), so each is logged once per session. */
  loggedReason: string | null;
}

/** A fresh state: window 0, nothing warned or blocked. */
export function emptyBudgetState(): SessionBudgetState {
  return { warnedWindow: null, blockedWindow: null, windowOrdinal: 0, lastModel: null, hostWindow: null, pointsCache: null, loggedReason: null };
}

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** `<runtimeDir>/budget/<session>.json`; throws BAD_SESSION_ID for an id that is not a safe file name. */
export function budgetStatePath(runtimeDir: string, sessionId: string): string {
  if (!SESSION_ID.test(sessionId) || sessionId.startsWith('.')) {
    throw new CapsuleError('BAD_SESSION_ID', `session id ${JSON.stringify(sessionId).slice(0, 80)} is not usable as a file name; expected letters, digits, '.', '_' or '-'.`, { sessionId });
  }
  return statePath(runtimeDir, STATE_FILES.budget, `${sessionId}.json`);
}

/** Reads a session's budget state; a missing or damaged file reads as a fresh state. */
export function readBudgetState(runtimeDir: string, sessionId: string): SessionBudgetState {
  const raw = readJson(budgetStatePath(runtimeDir, sessionId));
  if (!isRecord(raw)) return emptyBudgetState();
  const base = emptyBudgetState();
  return {
    warnedWindow: typeof raw.warnedWindow === 'string' ? raw.warnedWindow : null,
    blockedWindow: typeof raw.blockedWindow === 'string' ? raw.blockedWindow : null,
    windowOrdinal: typeof raw.windowOrdinal === 'number' && Number.isSafeInteger(raw.windowOrdinal) && raw.windowOrdinal >= 0 ? raw.windowOrdinal : base.windowOrdinal,
    lastModel: typeof raw.lastModel === 'string' ? raw.lastModel : null,
    hostWindow: isHostWindow(raw.hostWindow) ? raw.hostWindow : null,
    pointsCache: isRecord(raw.pointsCache) ? (raw.pointsCache as unknown as PointsCache) : null,
    loggedReason: typeof raw.loggedReason === 'string' ? raw.loggedReason : null,
  };
}

/** An unchanged state is still rewritten this often: pruning goes by the file's age (STATE_FILES.budget). */
export const BUDGET_STATE_REFRESH_MS = 24 * 3600 * 1000;

/**
 * Writes a session's budget state atomically (temp file + rename), unless the file already holds
 * exactly this state and was written within BUDGET_STATE_REFRESH_MS: most prompts and turns change
 * nothing, and a rename over the old file costs ~1-2 ms on ext4 (it forces the new blocks out),
 * in UserPromptSubmit before every prompt. `now` is ms since the epoch.
 */
export function writeBudgetState(runtimeDir: string, sessionId: string, state: SessionBudgetState, now: number = Date.now()): void {
  const path = budgetStatePath(runtimeDir, sessionId);
  const text = `${JSON.stringify(state)}\n`;
  if (readPrivateFile(path) === text && now - (lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) < BUDGET_STATE_REFRESH_MS) return;
  writePrivateFile(path, text);
}

/**
 * SessionStart's turn in a session's budget state: a compaction starts a new context window
 * (the ordinal moves on, so the warned and blocked flags no longer match); `/clear` arrives with
 * a new session id and so a fresh state. The model the host names (compact payloads carry it) is
 * remembered for when the transcript's newest record names none. Throws BAD_SESSION_ID.
 */
export function openBudgetWindow(runtimeDir: string, sessionId: string, start: { source?: string; model?: unknown }): void {
  const state = readBudgetState(runtimeDir, sessionId);
  writeBudgetState(runtimeDir, sessionId, {
    ...state,
    windowOrdinal: start.source === 'compact' ? state.windowOrdinal + 1 : state.windowOrdinal,
    lastModel: typeof start.model === 'string' && start.model !== '' ? start.model : state.lastModel,
  });
}

/** The window id the flags compare with: `<session>:<ordinal>`. */
export function windowIdOf(sessionId: string, state: SessionBudgetState): string {
  return `${sessionId}:${state.windowOrdinal}`;
}

/**
 * The runtime ceiling set by `git capsule budget cap`, or null when off or unreadable. A cap set
 * from inside a session belongs to it (cleared on session end or a change of session
 * identity): another session, or one that cannot name itself, does not see it. A cap set with no
 * session applies to every session.
 */
export function readCap(runtimeDir: string, sessionId: string | null = null): number | null {
  const raw = readJson(capPath(runtimeDir));
  if (!isRecord(raw)) return null;
  if (typeof raw.sessionId === 'string' && raw.sessionId !== sessionId) return null;
  const tokens = raw.tokens;
  return typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens > 0 ? tokens : null;
}

/** Sets (a number, for `sessionId` or, with null, for every session) or clears (null) the runtime ceiling. */
export function writeCap(runtimeDir: string, tokens: number | null, now: Date, sessionId: string | null = null): void {
  const path = capPath(runtimeDir);
  if (tokens === null) rmSync(path, { force: true });
  else writeJsonAtomic(path, { tokens, setAt: now.toISOString(), ...(sessionId !== null ? { sessionId } : {}) });
}

/** SessionEnd: removes the cap that belongs to the ending session; a cap of another session, or of none, stays. */
export function clearSessionCap(runtimeDir: string, sessionId: string): void {
  const raw = readJson(capPath(runtimeDir));
  if (isRecord(raw) && raw.sessionId === sessionId) rmSync(capPath(runtimeDir), { force: true });
}

function capPath(runtimeDir: string): string {
  return statePath(runtimeDir, STATE_FILES.budget, 'cap.json');
}

function isHostWindow(value: unknown): value is { model: string; tokens: number } {
  return isRecord(value) && typeof value.model === 'string' && typeof value.tokens === 'number' && Number.isSafeInteger(value.tokens) && value.tokens > 0;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readPrivateFile(path) ?? '');
  } catch {
    return undefined;
  }
}

function writeJsonAtomic(path: string, value: unknown): void {
  writePrivateFile(path, `${JSON.stringify(value)}\n`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
