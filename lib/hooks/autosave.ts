import { isCapsuleError } from '../errors/capsule-error';
import { parseCapsule } from '../capsule/parse';
import { renderCapsule } from '../capsule/render';
import { validateCapsuleText } from '../capsule/validate';
import type { CapsuleDocument } from '../capsule/types';
import { mergeAutosave, UNKNOWN_OBJECTIVE } from '../transcript/autosave-merge';
import type { HookDeps, HookStore } from './hook-deps';
import type { LazyStore } from './lazy-store';
import { readRepoHead } from './repo-head';
import type { HookContext } from './run-hook';
import { readSessionState, writeSessionState, type SessionState } from './session-state';
import { advanceCursor, readTranscriptDelta } from './transcript-delta';

/** What one autosave fold did. */
export interface AutosaveOutcome {
  id: string;
  doc: CapsuleDocument;
  /** False when nothing but the timestamp would have changed (no commit). */
  changed: boolean;
  commit: string | null;
}

/** The session whose transcript is folded. */
export interface AutosaveSession {
  sessionId: string;
  transcriptPath?: string;
  lastAssistantMessage?: string | null;
  /** Fold even when the delta holds no events (PreCompact: the checkpoint needs the document). */
  always?: boolean;
}

/**
 * The rolling autosave shared by Stop, PreCompact and SessionEnd: reads the transcript delta
 * since this session's cursor, extracts work events, folds them into the session's one
 * autosave capsule and commits it in place when it changed. The cursor advances only after
 * the write succeeded, so a failed write loses nothing. Validation is diagnostic: a content-gate
 * hit falls back to the unknown marker, anything else is logged and the store decides.
 * Returns null when the session has captured nothing yet (no capsule is created).
 */
export async function foldAutosave(store: LazyStore, session: AutosaveSession, ctx: HookContext, deps: HookDeps): Promise<AutosaveOutcome | null> {
  const state = readSessionState(ctx.runtimeDir, session.sessionId);
  const delta = session.transcriptPath ? readTranscriptDelta(session.transcriptPath, state.cursor) : null;
  if (delta?.restarted) ctx.warn('TRANSCRIPT_RESTARTED', `transcript ${session.transcriptPath} shrank or was replaced; read it again from the start`);
  const chunk = deps.parseTranscriptChunk(delta?.text ?? '', { baseLine: delta?.baseLine ?? 0, includeUnterminated: true });
  const lastAssistantMessage = typeof session.lastAssistantMessage === 'string' ? session.lastAssistantMessage : undefined;
  const events = deps.extractWorkEvents(chunk.records, { lastAssistantMessage });

  if (events.length === 0 && !session.always) {
    // Nothing new: no git process at all. (With no autosave yet, an empty one would only shadow real work.)
    if (delta) writeSessionState(ctx.runtimeDir, session.sessionId, { ...state, cursor: advanceCursor(delta, chunk) });
    return null;
  }
  const previous = await findAutosave(await store.get(), session.sessionId, state);
  if (previous === null && events.length === 0) return null;
  const now = ctx.now();
  const repo = readRepoHead(ctx.gitDir, ctx.commonDir);
  const merged = mergeAutosave(previous?.doc ?? null, events, {
    now,
    offsetMinutes: -now.getTimezoneOffset(),
    sessionId: session.sessionId,
    newId: deps.newCapsuleId(now),
    repoHead: repo.head,
    repoBranch: repo.branch,
    parentCapsuleId: state.parentCapsuleId,
  });
  const id = String(merged.doc.frontmatter.id);
  let commit: string | null = null;
  let text = state.autosaveText;
  if (merged.changed) {
    const written = await commitDocument(await store.get(), merged.doc, { op: 'autosave', replace: true }, ctx, deps);
    commit = written.commit;
    text = written.text;
  }
  writeSessionState(ctx.runtimeDir, session.sessionId, {
    ...state,
    autosaveId: id,
    ...(text !== undefined ? { autosaveText: text } : {}),
    ...(delta ? { cursor: advanceCursor(delta, chunk) } : {}),
  });
  return { id, doc: merged.doc, changed: merged.changed, commit };
}

/**
 * This session's autosave: the text this session last committed (cached in its runtime state:
 * only the owning session writes the document), else by its remembered id, else from the index.
 */
async function findAutosave(store: HookStore, sessionId: string, state: SessionState): Promise<{ doc: CapsuleDocument } | null> {
  if (state.autosaveText !== undefined) {
    const { doc } = parseCapsule(state.autosaveText);
    if (doc !== null && doc.frontmatter.id === state.autosaveId) return { doc };
  }
  if (!(await store.exists())) return null;
  let id = state.autosaveId;
  if (id === undefined) {
    const entries = await store.listIndex();
    id = entries.find((e) => e.sessionId === sessionId && e.trigger === 'autosave')?.id;
  }
  if (id === undefined) return null;
  try {
    const { doc } = parseCapsule((await store.readCapsule(id)).text);
    return doc === null ? null : { doc };
  } catch (err) {
    if (isCapsuleError(err, 'NOT_FOUND')) return null;
    throw err;
  }
}

/** Validates (diagnostically), redacts and commits one document; returns the commit (null: unchanged) and the text written. */
export async function commitDocument(
  store: HookStore,
  doc: CapsuleDocument,
  opts: { op: string; replace: boolean },
  ctx: HookContext,
  deps: HookDeps,
): Promise<{ commit: string | null; text: string }> {
  const text = redactBeforeCommit(checkedText(doc, ctx), ctx, deps);
  return { commit: (await store.writeCapsule(text, { now: ctx.now(), op: opts.op, replace: opts.replace })).commit, text };
}

/** Renders the document; a content-gate hit on a field falls back to an honest marker (logged). */
function checkedText(doc: CapsuleDocument, ctx: HookContext): string {
  let text = renderCapsule(doc);
  const problems = validateCapsuleText(text).problems;
  if (problems.length === 0) return text;
  const fixed: CapsuleDocument = { ...doc, frontmatter: { ...doc.frontmatter } };
  for (const p of problems) {
    if (p.code === 'CONTENT_GATE_OBJECTIVE') fixed.frontmatter.objective = UNKNOWN_OBJECTIVE;
    if (p.code === 'CONTENT_GATE_NEXT_ACTION') fixed.frontmatter.next_valid_action = 'No next action was captured (the captured text was resume ceremony)';
  }
  text = renderCapsule(fixed);
  ctx.warn('AUTOSAVE_VALIDATION', problems.map((p) => `${p.code}${p.field ? ` (${p.field})` : ''}`).join(', '));
  return text;
}

/**
 * The single place capsule text is redacted before it is committed: the memory branch is
 * pushed to remotes, so keys, tokens and passwords never reach it.
 */
export function redactBeforeCommit(text: string, ctx: HookContext, deps: HookDeps): string {
  const { text: clean, findings } = deps.redactSecrets(text);
  if (findings.length > 0) ctx.warn('REDACTED', `${findings.length} secret(s) redacted before commit`);
  return clean;
}
