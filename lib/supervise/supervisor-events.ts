import type { BudgetResolution } from '../budget/resolve-budget';
import type { Sent } from './supervisor-state';

/** What happens to the supervisor: the user's input, the client's stream, the memory branch, the clock. */
export type SupervisorEvent =
  /** A user message line (stream-json), held until the client is idle. */
  | { type: 'input'; line: string }
  /** A protocol line that is not a message: it passes at once. */
  | { type: 'control'; line: string }
  | { type: 'input-end' }
  | { type: 'session'; id: string }
  | { type: 'activity' }
  /** A fill of the main conversation, with the budget resolved for it by the runtime. */
  | { type: 'fill'; tokens: number; resolution: BudgetResolution | null }
  | { type: 'budget-block' }
  | { type: 'assistant-text'; text: string }
  | { type: 'result'; localCommand: string | null; queued: number }
  | { type: 'compacted' }
  /** What the memory branch says about a capsule id the agent announced. */
  | { type: 'verified'; id: string; ok: boolean; why: string | null }
  | { type: 'tick' }
  | { type: 'exit'; code: number };

/** The coordination phases the supervisor writes (CAPSULE_COORDINATION_STATE): non-terminal while the capsule is awaited. */
export type ConductorPhase = 'capsule-pending' | 'complete' | 'aborted';

/** What the runtime must do, in order. */
export type SupervisorCommand =
  | { type: 'send'; line: string; what: Sent | 'control' }
  /** End the client's input: it finishes and exits. */
  | { type: 'close-input' }
  | { type: 'phase'; phase: ConductorPhase; reset: number; session: string | null; capsuleId: string | null }
  | { type: 'verify'; id: string }
  | { type: 'report'; report: SupervisorReport }
  /** Deliver a `tick` at this time (ms, the clock the events use). */
  | { type: 'wake'; at: number };

/** One thing the supervisor tells the user (stderr, as a line or as JSON). */
export type SupervisorReport =
  | { kind: 'armed'; reset: number; fill: number; point: number; pointName: string; session: string | null; by: 'fill' | 'block' }
  | { kind: 'asked'; reset: number }
  | { kind: 'capsule'; reset: number; id: string }
  | { kind: 'capsule-refused'; reset: number; id: string; why: string }
  | { kind: 'no-capsule'; reset: number; waitedMs: number }
  | { kind: 'held'; reset: number; phase: string }
  | { kind: 'cleared'; reset: number; session: string | null }
  | { kind: 'continued'; reset: number; held: number }
  | { kind: 'max-resets'; max: number; fill: number }
  | { kind: 'no-reset-point'; why: string }
  | { kind: 'undelivered'; count: number }
  | { kind: 'exit'; code: number; resets: number };

/** What step() is given besides the event: the time, and the coordination file's verdict. */
export interface StepContext {
  now: number;
  /** The phase of another conductor that currently owns the lifecycle, or null (read only when asked). */
  conductorHold: () => string | null;
}
