import { RECORD_VIEWS, WORK_STATE_READERS } from './work-state-readers';
import { isCapsuleError } from '../errors/capsule-error';
import { parseCapsule } from '../capsule/parse';
import { renderCapsule } from '../capsule/render';
import type { CapsuleDocument, Problem } from '../capsule/types';
import { mergeAutosave, UNKNOWN_OBJECTIVE } from '../work-state/autosave-merge';
import { carryForward } from '../work-state/carry-forward';
import type { HookDeps, HookStore } from './hook-deps';
import type { LazyStore } from './lazy-store';
import { readRepoHead } from '../git/repo-head';
import type { HookContext } from './run-hook';
import { readSessionState, writeSessionState, type SessionState } from '../local-state/session-state';
import { clearPrompts, readPrompts, type ProcessStamp } from '../local-state/prompt-journal';
import { advanceCursor, readTranscriptDelta } from '../hosts/transcript-delta';
import { redactHostText, redactRecords } from '../hosts/redact-records';
import { redactDeep } from '../redact/redact-deep';
import type { BackgroundTask, WorkCarry } from '../transcript/work-event-types';
import type { AutosaveEvent } from '../work-state/autosave-merge';
import { noteCodePath } from './code-path';
import { mintCapsuleId } from '../store/random-bytes';
import { parseTranscriptChunk } from '../transcript/jsonl';
import { decodeOpenChecks, encodeOpenChecks, unionFailures } from '../transcript/failure-pairing';

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
  /** Stop's `background_tasks`; absent on events that carry none. */
  backgroundTasks?: unknown;
  /** Events from outside the transcript, folded after it (PostCompact: the summariser's state block). */
  extraEvents?: readonly AutosaveEvent[];
  /** Fold even when the delta holds no events (PreCompact: the checkpoint needs the document). */
  always?: boolean;
  /** Work to run while the fold's commit is with git (WriteOptions.whileCommitting; Stop: its budget). */
  whileCommitting?: () => void;
  /** Only the journal's prompts submitted by a hook started no later than this one (Stop: its own process; prompt-journal.ts). */
  promptsUpTo?: ProcessStamp;
}

const EVIDENCE_ONLY: ReadonlySet<string> = new Set(['final-message', 'compact-summary']);
const NO_ACTION_CAPTURED = 'No next step captured: the captured text was resume ceremony';

/**
 * The rolling autosave shared by Stop, PreCompact and SessionEnd: reads the transcript delta
 * since this session's cursor, extracts work events, folds them into the session's one
 * autosave capsule and commits it in place when it changed. The cursor advances only after
 * the write succeeded, so a failed write loses nothing. Returns null when there was nothing to
 * fold (then no git process starts, and a session that captured nothing gets no capsule).
 */
export async function foldAutosave(store: LazyStore, session: AutosaveSession, ctx: HookContext, deps: HookDeps): Promise<AutosaveOutcome | null> {
  const state = readSessionState(ctx.runtimeDir, session.sessionId);
  const view = RECORD_VIEWS[ctx.host.name];
  const delta = session.transcriptPath ? readTranscriptDelta(session.transcriptPath, state.cursor, { view }) : null;
  if (delta?.restarted) ctx.warn('TRANSCRIPT_RESTARTED', `transcript ${session.transcriptPath} shrank or was replaced; read it again from the start`);
  if (delta && delta.skippedBytes > 0) ctx.warn('TRANSCRIPT_DELTA_CLIPPED', `the turn appended more than the autosave reads at once; its first ${delta.skippedBytes} bytes were not folded`);
  // Every record is redacted as it leaves the reader (a streamed delta's before it is slimmed), so
  // nothing below clips, joins or renders a secret: extraction sees only redacted text; only the
  // part of it the host's reader reads (RECORD_VIEWS), the rest is never redacted for nothing.
  const parsed = delta?.streamed ?? parseTranscriptChunk(delta?.text ?? '', { baseLine: delta?.baseLine ?? 0, includeUnterminated: true });
  const chunk = delta?.streamed ? parsed : { ...parsed, records: redactRecords(parsed.records, view) };
  const lastAssistantMessage = typeof session.lastAssistantMessage === 'string' ? redactHostText(session.lastAssistantMessage) : undefined;
  const submittedPrompts = readPrompts(ctx.runtimeDir, session.sessionId, session.promptsUpTo);
  const extracted = WORK_STATE_READERS[ctx.host.name](chunk.records, {
    lastAssistantMessage,
    backgroundTasks: backgroundTasks(session.backgroundTasks),
    submittedPrompts,
    projectRoot: ctx.repo.walked?.level ?? ctx.projectDir,
    homeDir: ctx.env.HOME,
    carry: withCapsuleChecks(carryOf(state.workCarry), state),
  });
  const events = [...extracted.events, ...(session.extraEvents ?? [])];
  const carry = extracted.carry;
  // The journal's prompts are in this fold now (or were already in the transcript).
  const settle = () => {
    if (submittedPrompts.length > 0) clearPrompts(ctx.runtimeDir, session.sessionId, session.promptsUpTo);
  };

  // Quoted evidence alone (a final message with no request and no work) is no state to save.
  const substantive = events.some((e) => !EVIDENCE_ONLY.has(e.kind));
  noteCodePath(!substantive ? 'fold-empty' : 'fold-events'); // see lib/hooks/code-path.ts
  if (!substantive && !session.always) {
    if (delta) writeSessionState(ctx.runtimeDir, session.sessionId, { ...state, workCarry: carry, cursor: advanceCursor(delta, chunk), transcriptPath: session.transcriptPath });
    settle();
    return null;
  }
  // Something to fold: start git now (a floating catch only marks the promise handled; every
  // await of store.get() still sees a failure), so its start-up overlaps the merge and render.
  store.get().catch(() => undefined);
  const now = ctx.now();
  // A session that goes on from a resumed capsule (and has no autosave yet) folds on top of it.
  const seed = state.autosaveId === undefined && isCachedDoc(state.seedDoc) ? state.seedDoc : null;
  const previous = seed !== null ? null : await findAutosave(store, session.sessionId, state);
  const base = previous ?? (seed === null ? null : carryForward(seed, { newId: mintCapsuleId(now), now, offsetMinutes: -now.getTimezoneOffset(), sessionId: session.sessionId, parentCapsuleId: state.parentCapsuleId ?? String(seed.frontmatter.id) }));
  if (base === null && events.length === 0) return null;
  const repo = readRepoHead(ctx.gitDir, ctx.commonDir);
  const merged = mergeAutosave(base, events, {
    now,
    offsetMinutes: -now.getTimezoneOffset(),
    sessionId: session.sessionId,
    newId: mintCapsuleId(now),
    repoHead: repo.head,
    repoBranch: repo.branch,
    parentCapsuleId: state.parentCapsuleId,
    openChecks: encodeOpenChecks(carry.openFailures),
  });
  let doc = merged.doc;
  let commit: string | null = null;
  if (merged.changed) ({ commit, doc } = await commitDocument(await store.get(), merged.doc, { op: 'autosave', replace: true, whileCommitting: session.whileCommitting }, ctx, deps));
  const id = String(doc.frontmatter.id);
  // Until the first commit the seed stays: a fold with nothing new writes nothing.
  const { seedDoc: _seed, ...rest } = state;
  const next = commit === null && seed !== null ? { ...state } : { ...rest, autosaveId: id, autosaveDoc: doc };
  writeSessionState(ctx.runtimeDir, session.sessionId, { ...next, workCarry: carry, ...(delta ? { cursor: advanceCursor(delta, chunk), transcriptPath: session.transcriptPath } : {}) });
  settle();
  return { id, doc, changed: merged.changed, commit };
}

/**
 * This session's autosave: the document it last committed (kept in its runtime state: only the
 * owning session writes it, so no git read and no YAML parse), else by its remembered id, else
 * from the index.
 */
async function findAutosave(lazy: LazyStore, sessionId: string, state: SessionState): Promise<CapsuleDocument | null> {
  if (isCachedDoc(state.autosaveDoc) && state.autosaveDoc.frontmatter.id === state.autosaveId) return state.autosaveDoc;
  const store = await lazy.get();
  if (!(await store.exists())) return null;
  let id = state.autosaveId;
  if (id === undefined) {
    const entries = await store.listIndex();
    id = entries.find((e) => e.sessionId === sessionId && e.trigger === 'autosave')?.id;
  }
  if (id === undefined) return null;
  try {
    return parseCapsule((await store.readCapsule(id)).text).doc;
  } catch (err) {
    if (isCapsuleError(err, 'NOT_FOUND')) return null;
    throw err;
  }
}

/** The extraction's carry read back from the JSON state file; the extractor checks each entry's shape. */
function carryOf(value: unknown): Partial<WorkCarry> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const c = value as Record<string, unknown>;
  return {
    openFailures: Array.isArray(c.openFailures) ? (c.openFailures as WorkCarry['openFailures']) : [],
    lastTurnDone: c.lastTurnDone === true,
    seenPrompts: Array.isArray(c.seenPrompts) ? (c.seenPrompts as string[]) : [],
    ...(typeof c.taskSubjects === 'object' && c.taskSubjects !== null && !Array.isArray(c.taskSubjects) ? { taskSubjects: c.taskSubjects as Record<string, string> } : {}),
  };
}

/**
 * The carry with the open failures the capsule itself carries (`open_checks`) added: this
 * session's autosave, or the resumed capsule it goes on from after a /clear or a compaction,
 * whose failing session's runtime state this session never sees.
 */
function withCapsuleChecks(carry: Partial<WorkCarry> | undefined, state: SessionState): Partial<WorkCarry> {
  const doc = isCachedDoc(state.autosaveDoc) ? state.autosaveDoc : isCachedDoc(state.seedDoc) ? state.seedDoc : null;
  const fromCapsule = doc === null ? [] : decodeOpenChecks(doc.frontmatter.open_checks);
  return { ...carry, openFailures: unionFailures(fromCapsule, carry?.openFailures ?? []) };
}

/** Stop's `background_tasks` when it is a list; anything else counts as not reported. */
function backgroundTasks(value: unknown): BackgroundTask[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null).map((t) => ({
    ...(typeof t.description === 'string' ? { description: t.description } : {}),
    ...(typeof t.command === 'string' ? { command: t.command } : {}),
    ...(typeof t.status === 'string' ? { status: t.status } : {}),
  }));
}

/** A document read back from the JSON state file, trusted only with the expected shape. */
function isCachedDoc(value: unknown): value is CapsuleDocument {
  const d = value as Partial<CapsuleDocument> | undefined;
  return typeof d === 'object' && d !== null && typeof d.frontmatter === 'object' && d.frontmatter !== null && typeof d.sections === 'object' && d.sections !== null && typeof d.notes === 'string';
}

/**
 * Commits one document (the store redacts it); returns the commit (null: unchanged) and the document
 * written. Validation is the store's (CAPSULE_INVALID with the problems, nothing written): a
 * content-gate hit on a field the autosave filled from captured text falls back to an honest
 * marker, is logged, and the write is tried once more; any other problem fails the hook open.
 */
export async function commitDocument(
  store: HookStore,
  doc: CapsuleDocument,
  opts: { op: string; replace: boolean; whileCommitting?: () => void },
  ctx: HookContext,
  deps: HookDeps,
): Promise<{ commit: string | null; doc: CapsuleDocument }> {
  const write = async (d: CapsuleDocument) => {
    // The store redacts (its one write path); the hook only says that it did.
    const result = await store.writeCapsule(renderCapsule(d), { now: ctx.now(), op: opts.op, replace: opts.replace, whileCommitting: opts.whileCommitting });
    const redacted = result.redactions.reduce((n, f) => n + f.count, 0);
    if (redacted > 0) ctx.warn('REDACTED', `${redacted} secret(s) redacted before commit`);
    // The document handed back is kept in the session's runtime state as committed: redacted
    // the same way when the store found something (rare: the records were redacted as read).
    return { commit: result.commit, doc: redacted > 0 ? redactDeep(d, { opaque: {} }).value : d };
  };
  try {
    return await write(doc);
  } catch (err) {
    const problems = isCapsuleError(err, 'CAPSULE_INVALID') ? ((err.data.problems as Problem[] | undefined) ?? []) : [];
    const fixed = problems.length > 0 ? withoutGatedFields(doc, problems) : null;
    if (fixed === null) throw err;
    ctx.warn('AUTOSAVE_VALIDATION', problems.map((p) => `${p.code}${p.field ? ` (${p.field})` : ''}`).join(', '));
    return write(fixed);
  }
}

/** The document with its content-gated fields replaced by markers; null when other problems remain. */
function withoutGatedFields(doc: CapsuleDocument, problems: Problem[]): CapsuleDocument | null {
  const fixed: CapsuleDocument = { ...doc, frontmatter: { ...doc.frontmatter } };
  for (const p of problems) {
    if (p.code === 'CONTENT_GATE_OBJECTIVE') fixed.frontmatter.objective = UNKNOWN_OBJECTIVE;
    else if (p.code === 'CONTENT_GATE_NEXT_ACTION') fixed.frontmatter.next_valid_action = NO_ACTION_CAPTURED;
    else return null;
  }
  return fixed;
}
