/**
 * The continuity benchmark's scenarios, host-neutral: what a session does (turns of prompts and
 * scripted model actions), which resets it is probed after, and what the first request after the
 * reset must (facts) and must not (anti-facts) carry. A host driver (bench/continuity/claude/ for
 * Claude Code) turns a scenario into a real client session; the scorer only reads the resume text.
 */

/** One thing the scripted model does in a turn. The last action of a turn is its final text. */
export type Action =
  | { tool: 'Bash'; command: string; description?: string; background?: boolean }
  | { tool: 'Read'; path: string }
  | { tool: 'Write'; path: string; content: string }
  | { tool: 'Edit'; path: string; old: string; new: string }
  | { text: string };

/** A user prompt and what the model answers to it, tool call by tool call. */
export interface Turn {
  prompt: string;
  actions: Action[];
  /**
   * Model answers to host notifications that arrive during this turn (a background task that
   * finished): `match` is a regex on the notification text.
   */
  notifications?: Array<{ match: string; actions: Action[] }>;
}

/** A step of a session: a turn, or a reset in the middle of the work (the probed reset is not a step). */
export type Step = Turn | { reset: 'compact' | 'clear' };

/** Where a fact must appear, by the label of its line in the resume text's current state. */
export type StateLabel = 'objective' | 'waiting_on' | 'next_valid_action' | 'done' | 'errors' | 'files' | 'facts' | 'rejected' | 'gates' | 'claimed';

/** Something the first request after the reset must carry, in a line with one of the labels. */
export interface Fact {
  id: string;
  in: StateLabel[];
  /** A regex (case-insensitive) the labelled line must match. */
  pattern: string;
}

/**
 * Something that must not reach the agent: `in` the labelled current-state lines, `anywhere` in
 * the resume text, `unquoted` as a line of its own outside any quoted value, or `branch` in any
 * object of the memory branch.
 */
export interface AntiFact {
  id: string;
  in: StateLabel[] | 'anywhere' | 'unquoted' | 'branch';
  pattern: string;
}

/** Which reset the scenario is probed after: the first request after it is scored. */
export type Reset = 'clear' | 'compact';

/** One session of a scenario; concurrent scenarios have several, interleaved by `order`. */
export interface SessionScript {
  name: string;
  steps: Step[];
}

/** A scenario of the benchmark. */
export interface Scenario {
  name: string;
  /** What it covers, one line (printed in the report). */
  covers: string;
  /** Files of the project before the session starts, on top of the shared template. */
  repo?: Record<string, string>;
  sessions: SessionScript[];
  /**
   * For several sessions: the order in which their steps run, by session name, one entry per
   * step (`['a', 'b', 'a']`). The probed session is `probe.session`.
   */
  order?: string[];
  /** The resets it is probed after, and the prompt of the probe (the first request after it). */
  probe: { resets: Reset[]; prompt: string; session?: string };
  /** What the scripted summariser answers to a compaction request (default: a plain summary). */
  compactSummary?: string;
  facts: Fact[];
  antiFacts: AntiFact[];
}

/** True when a step is a reset, not a turn. */
export function isReset(step: Step): step is { reset: 'compact' | 'clear' } {
  return 'reset' in step;
}
