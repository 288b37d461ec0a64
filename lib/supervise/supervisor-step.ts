import { findCapsuleLiteral } from './capsule-literal';
import { userMessageLine } from './input-lines';
import { resolveResetPoint } from './reset-point';
import type { StepContext, SupervisorCommand, SupervisorEvent, SupervisorReport } from './supervisor-events';
import type { ResetInFlight, Sent, SupervisorState } from './supervisor-state';
import { renderCapsuleRequest } from './supervisor-text';

/** The new state and what to do, in order. */
export interface StepResult {
  state: SupervisorState;
  commands: SupervisorCommand[];
}

/**
 * The supervisor's decisions, one event at a time; it never touches the outside world. Its
 * guards: nothing is sent while a turn runs (one result per thing sent); the user's messages
 * leave in the order they came, and those arriving during a reset wait until after the
 * continuation; the wait for the capsule is bounded; a reset starts at most once per context
 * window and never past `maxResets`; while another conductor's phase is live, no reset acts.
 *
 * @example
 * let s = initialState(options);
 * ({ state: s, commands } = stepSupervisor(s, { type: 'input', line }, { now: 1_000, conductorHold: () => null }));
 */
export function stepSupervisor(state: SupervisorState, event: SupervisorEvent, ctx: StepContext): StepResult {
  const s: SupervisorState = { ...state, queue: [...state.queue], reset: state.reset && { ...state.reset, literal: state.reset.literal && { ...state.reset.literal } }, noticed: [...state.noticed] };
  const out: SupervisorCommand[] = [];
  if (s.exited) return { state: s, commands: out };
  const report = (r: SupervisorReport) => out.push({ type: 'report', report: r });
  switch (event.type) {
    case 'input':
      s.queue.push(event.line);
      break;
    case 'control':
      out.push({ type: 'send', line: event.line, what: 'control' });
      break;
    case 'input-end':
      s.inputEnded = true;
      break;
    case 'session':
      s.session = event.id;
      break;
    case 'activity':
      // A turn the client started by itself (a background task's notification): wait for its result too.
      if (!s.running) {
        s.running = true;
        s.runningSent = null;
        // Within the grace after the hard point, a turn the client starts by itself is the
        // background Stop's block waking the agent (the stream does not show the block's text).
        if (s.reset?.stage === 'capsule' && !s.reset.asked && s.reset.hookGraceUntil !== null && ctx.now < s.reset.hookGraceUntil) s.reset.asked = true;
      }
      break;
    case 'compacted':
      s.compactions += 1;
      break;
    case 'fill':
      s.lastFill = event.tokens;
      s.resolution = event.resolution ?? s.resolution;
      arm(s, 'fill', report, out);
      break;
    case 'budget-block':
      if (s.reset !== null) s.reset.asked = true;
      // With a reset point of its own the supervisor measures by itself; the hook's block only asks.
      else if (s.options.resetAt.kind === 'hard') arm(s, 'block', report, out);
      break;
    case 'assistant-text': {
      const id = findCapsuleLiteral(event.text);
      // Only a literal after the reset point counts: an earlier checkpoint is not this window's capsule.
      if (id !== null && s.reset?.stage === 'capsule') {
        s.reset.literal = { id, check: 'pending' };
        out.push({ type: 'verify', id });
      }
      break;
    }
    case 'result':
      endTurn(s, event, ctx.now, report);
      break;
    case 'verified':
      if (s.reset?.stage === 'capsule' && s.reset.literal?.id === event.id && s.reset.literal.check === 'pending') {
        s.reset.literal.check = event.ok ? 'ok' : 'refused';
        if (!event.ok) report({ kind: 'capsule-refused', reset: s.reset.n, id: event.id, why: event.why ?? 'not found' });
      }
      break;
    case 'tick':
      break;
    case 'exit':
      s.exited = true;
      if (s.reset !== null && s.reset.stage === 'capsule') out.push(phase(s.reset, 'aborted'));
      if (s.queue.length > 0) report({ kind: 'undelivered', count: s.queue.length });
      report({ kind: 'exit', code: event.code, resets: s.resets });
      return { state: s, commands: out };
  }
  pump(s, ctx, report, out);
  return { state: s, commands: out };
}

/**
 * Starts a reset when the fill reaches the reset point (or the hook's block says the hard point
 * is reached), once per context window, as the budget policy's Stop block does.
 */
function arm(s: SupervisorState, by: 'fill' | 'block', report: (r: SupervisorReport) => void, out: SupervisorCommand[]): void {
  if (s.reset !== null) return;
  const windowId = `${s.session ?? '?'}:${s.compactions}`;
  if (s.armedWindow === windowId) return;
  const fill = s.lastFill ?? 0;
  let point: number;
  let pointName: string;
  if (by === 'block') {
    // The hook measured against the same policy and decided: take its word.
    point = s.resolution?.status === 'ok' ? s.resolution.points.hard : fill;
    pointName = 'hard point';
  } else {
    const resolved = resolveResetPoint(s.options.resetAt, s.resolution);
    if (!resolved.ok) {
      noticeOnce(s, `no-point:${resolved.why}`, () => report({ kind: 'no-reset-point', why: resolved.why }));
      return;
    }
    if (fill < resolved.tokens) return;
    point = resolved.tokens;
    pointName = resolved.name;
  }
  s.armedWindow = windowId;
  if (s.options.maxResets !== null && s.resets >= s.options.maxResets) {
    report({ kind: 'max-resets', max: s.options.maxResets, fill });
    return;
  }
  s.reset = { n: s.resets + 1, stage: 'capsule', fill, point, pointName, session: s.session, asked: by === 'block', askEndedAt: null, hookGraceUntil: null, literal: null, capsuleId: null, heldBy: null };
  out.push(phase(s.reset, 'capsule-pending'));
  report({ kind: 'armed', reset: s.reset.n, fill, point, pointName, session: s.session, by });
}

function endTurn(s: SupervisorState, event: Extract<SupervisorEvent, { type: 'result' }>, now: number, report: (r: SupervisorReport) => void): void {
  const ended: Sent | null = s.runningSent;
  // The client says how many turns it still has queued: the supervisor stays quiet until they end too.
  s.running = event.queued > 0;
  if (!s.running) s.runningSent = null;
  const r = s.reset;
  if (r === null) return;
  if (r.stage === 'capsule' && r.asked && r.askEndedAt === null) r.askEndedAt = now;
  if (r.stage === 'clear' && ended === 'clear' && !s.running) {
    r.stage = 'continue';
    report({ kind: 'cleared', reset: r.n, session: s.session });
  }
}

/** When the client is idle: the next step of a reset, else the next held message, else the end of input. */
/** How long, past the hard point, the supervisor waits for the background Stop hook's block before it asks itself. */
export const HOOK_BLOCK_GRACE_MS = 5000;

function pump(s: SupervisorState, ctx: StepContext, report: (r: SupervisorReport) => void, out: SupervisorCommand[]): void {
  if (s.running) return;
  const send = (line: string, what: Sent) => {
    out.push({ type: 'send', line, what });
    s.running = true;
    s.runningSent = what;
  };
  const r = s.reset;
  if (r !== null) {
    if (r.stage === 'capsule') {
      const hold = ctx.conductorHold();
      if (hold !== null) {
        if (r.heldBy !== hold) report({ kind: 'held', reset: r.n, phase: hold });
        r.heldBy = hold;
        out.push({ type: 'wake', at: ctx.now + s.options.holdPollMs });
        return;
      }
      r.heldBy = null;
      if (r.literal?.check === 'pending') return; // the verification's answer pumps again
      if (r.literal?.check === 'ok') {
        r.capsuleId = r.literal.id;
        report({ kind: 'capsule', reset: r.n, id: r.literal.id });
      } else if (!r.asked && s.options.resetAt.kind === 'hard' && ctx.now < (r.hookGraceUntil ??= ctx.now + HOOK_BLOCK_GRACE_MS)) {
        // The Stop hook decides at the same hard point but in the background (Claude Code:
        // asyncRewake): its block arrives after the result. Asking now as well would ask the
        // agent twice; where it runs in the foreground the block's turn starts at once and ends the wait.
        out.push({ type: 'wake', at: r.hookGraceUntil });
        return;
      } else if (!r.asked) {
        r.asked = true;
        report({ kind: 'asked', reset: r.n });
        send(userMessageLine(renderCapsuleRequest(r.fill, r.point, r.pointName)), 'ask');
        return;
      } else {
        const since = r.askEndedAt ?? ctx.now;
        if (ctx.now < since + s.options.capsuleWaitMs) {
          out.push({ type: 'wake', at: since + s.options.capsuleWaitMs });
          return;
        }
        report({ kind: 'no-capsule', reset: r.n, waitedMs: ctx.now - since });
      }
      // Terminal before the clear: the coordination guard defers a resume while the phase is live.
      out.push(phase(r, 'complete'));
      r.stage = 'clear';
      send(userMessageLine('/clear'), 'clear');
      return;
    }
    if (r.stage === 'continue') {
      s.resets = r.n;
      s.reset = null;
      report({ kind: 'continued', reset: r.n, held: s.queue.length });
      send(userMessageLine(s.options.continuation), 'continuation');
      return;
    }
    return;
  }
  const next = s.queue.shift();
  if (next !== undefined) {
    send(next, 'user');
    return;
  }
  if (s.inputEnded && !s.inputClosed) {
    s.inputClosed = true;
    out.push({ type: 'close-input' });
  }
}

function phase(r: ResetInFlight, name: 'capsule-pending' | 'complete' | 'aborted'): SupervisorCommand {
  return { type: 'phase', phase: name, reset: r.n, session: r.session, capsuleId: r.capsuleId };
}

function noticeOnce(s: SupervisorState, key: string, emit: () => void): void {
  if (s.noticed.includes(key)) return;
  s.noticed.push(key);
  emit();
}
