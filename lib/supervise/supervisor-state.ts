import type { BudgetResolution } from '../budget/resolve-budget';
import type { ResetPointSpec } from './reset-point';

/** What the user chose (`git capsule supervise` flags). */
export interface SupervisorOptions {
  resetAt: ResetPointSpec;
  /** The message sent after `/clear`, so the fresh window goes on with the work. */
  continuation: string;
  /** Resets after which the supervisor only relays; null: no limit. */
  maxResets: number | null;
  /** How long after the turn that asked for the capsule ends the supervisor still waits for the literal. */
  capsuleWaitMs: number;
  /** How often a reset held by another conductor checks again. */
  holdPollMs: number;
}

/** What the supervisor itself sent to start the turn that runs. */
export type Sent = 'user' | 'ask' | 'clear' | 'continuation';

/** The completion literal seen during a reset, and what the memory branch says about it. */
export interface SeenLiteral {
  id: string;
  check: 'pending' | 'ok' | 'refused';
}

/** A reset from the reset point to the continuation. */
export interface ResetInFlight {
  /** 1 for the first reset of the run. */
  n: number;
  /** capsule: waiting for the capsule; clear: `/clear` sent; continue: cleared, the continuation is next. */
  stage: 'capsule' | 'clear' | 'continue';
  fill: number;
  point: number;
  pointName: string;
  /** The session that reached the point. */
  session: string | null;
  /** The agent was asked for the capsule: the hook's block reached it, or the supervisor asked. */
  asked: boolean;
  /** When the turn that carried the request ended (the bounded wait counts from here). */
  askEndedAt: number | null;
  /**
   * Until when the supervisor leaves the ask to the Stop hook (reset at the hard point): the hook
   * runs in the background and its block wakes the model just after the turn's result.
   */
  hookGraceUntil: number | null;
  literal: SeenLiteral | null;
  /** The capsule the resume is expected to hand back; null when the autosave stands. */
  capsuleId: string | null;
  /** The other conductor's phase that holds this reset, once reported. */
  heldBy: string | null;
}

/** The whole supervisor, between two events. */
export interface SupervisorState {
  options: SupervisorOptions;
  /** A turn is running: the client has not yet answered with its `result`. */
  running: boolean;
  /** What started the running turn; null when the client started it by itself. */
  runningSent: Sent | null;
  /** The user's messages not yet sent, oldest first. */
  queue: string[];
  inputEnded: boolean;
  inputClosed: boolean;
  session: string | null;
  /** Compactions seen in this session: each starts a new context window. */
  compactions: number;
  /** The context window (`<session>:<compactions>`) whose reset point was last reached: once per window, like the hook's block. */
  armedWindow: string | null;
  /** The newest fill of the main conversation, in tokens. */
  lastFill: number | null;
  /** The latest budget resolution the runtime gave (null before the first). */
  resolution: BudgetResolution | null;
  /** Resets completed (the continuation was sent). */
  resets: number;
  reset: ResetInFlight | null;
  /** Keys of notices already reported once. */
  noticed: string[];
  exited: boolean;
}

/** The state before the client's first event. */
export function initialState(options: SupervisorOptions): SupervisorState {
  return {
    options,
    running: false,
    runningSent: null,
    queue: [],
    inputEnded: false,
    inputClosed: false,
    session: null,
    compactions: 0,
    armedWindow: null,
    lastFill: null,
    resolution: null,
    resets: 0,
    reset: null,
    noticed: [],
    exited: false,
  };
}
