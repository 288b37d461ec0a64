import { isCapsuleError } from '../errors/capsule-error';
import { parseCapsule } from '../capsule/parse';
import { renderCapsule } from '../capsule/render';
import { validateCapsuleText } from '../capsule/validate';
import type { CapsuleDocument } from '../capsule/types';
import { mergeAutosave, UNKNOWN_OBJECTIVE } from '../transcript/autosave-merge';
import type { HookDeps, HookStore } from './hook-deps';
import { readRepoHead } from './repo-head';
import type { HookContext } from './run-hook';
import { readSessionState, writeSessionState } from './session-state';
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
}

/**
 * The rolling autosave shared by Stop, PreCompact and SessionEnd: reads the transcript delta
 * since this session's cursor, extracts work events, folds them into the session's one
 * autosave capsule and commits it in place when it changed. The cursor advances only after
 * the write succeeded, so a failed write loses nothing. Validation is diagnostic: a content-gate
 * hit falls back to the unknown marker, anything else is logged and the store decides.
 * Returns null when the session has captured nothing yet (no capsule is created).
 */
export async function foldAutosave(store: HookStore, session: AutosaveSession, ctx: HookContext, deps: HookDeps): Promise<AutosaveOutcome | null> {
  const state = readSessionState(ctx.runtimeDir, session.sessionId);
  const delta = session.transcriptPath ? readTranscriptDelta(session.transcriptPath, state.cursor) : null;
  if (delta?.restarted) ctx.warn('TRANSCRIPT_RESTARTED', `transcript ${session.transcriptPath} shrank or was replaced; read it again from the start`);
  const chunk = deps.parseTranscriptChunk(delta?.text ?? '', { baseLine: delta?.baseLine ?? 0, includeUnterminated: true });
  const lastAssistantMessage = typeof session.lastAssistantMessage === 'string' ? session.lastAssistantMessage : undefined;
  const events = deps.extractWorkEvents(chunk.records, { lastAssistantMessage });

  const previous = await findAutosave(store, session.sessionId, state.autosaveId);
  if (previous === null && events.length === 0) {
    // Nothing captured yet: an empty autosave would only shadow real work at the next resume.
    if (delta) writeSessionState(ctx.runtimeDir, session.sessionId, { ...state, cursor: advanceCursor(delta, chunk) });
    return null;
  }
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
  if (merged.changed) commit = await commitDocument(store, merged.doc, { op: 'autosave', replace: true }, ctx, deps);
  writeSessionState(ctx.runtimeDir, session.sessionId, {
    ...state,
    autosaveId: id,
    ...(delta ? { cursor: advanceCursor(delta, chunk) } : {}),
  });
  return { id, doc: merged.doc, changed: merged.changed, commit };
}

/** This session's autosave: by the id remembered in the runtime dir, else from the index. */
async function findAutosave(store: HookStore, sessionId: string, knownId: string | undefined): Promise<{ doc: CapsuleDocument } | null> {
  if (!(await store.exists())) return null;
  let id = knownId;
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

/** Validates (diagnostically), redacts and commits one document; returns the commit or null. */
export async function commitDocument(
  store: HookStore,
  doc: CapsuleDocument,
  opts: { op: string; replace: boolean },
  ctx: HookContext,
  deps: HookDeps,
): Promise<string | null> {
  const text = redactBeforeCommit(checkedText(doc, ctx), ctx, deps);
  return (await store.writeCapsule(text, { now: ctx.now(), op: opts.op, replace: opts.replace })).commit;
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
