/**
 * The continuity benchmark's scenarios, host-neutral: what a session does (turns of prompts and
 * scripted model actions), which resets it is probed after, and what the first request after the
 * reset must (facts) and must not (anti-facts) carry. A host driver (bench/continuity/claude/ for
 * Claude Code) turns a scenario into a real client session; the scorer only reads the resume text.
 */

/** A task's status as Claude Code 2.1.332's `TaskUpdate` takes it. */
export type TaskStatus = 'pending' | 'in_progress' | 'completed';

/**
 * One thing the scripted model does in a turn. The last action of a turn is its final text.
 * `inputTokens` is the context size the fake API reports with this answer (`usage.input_tokens`):
 * a large one makes the client compact automatically after the tool call (with the session's
 * `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`), as a long session does.
 */
export type Action = (
  | { tool: 'Bash'; command: string; description?: string; background?: boolean }
  | { tool: 'Read'; path: string }
  | { tool: 'Write'; path: string; content: string }
  | { tool: 'Edit'; path: string; old: string; new: string }
  /** Loads deferred tools' schemas (the task tools are deferred in 2.1.332): `select:TaskCreate,TaskUpdate,TaskList`. */
  | { tool: 'ToolSearch'; query: string }
  /** Claude Code 2.1.332's task list: the result names the id (`Task #3 created successfully: …`), counted from 1 per session. */
  | { tool: 'TaskCreate'; subject: string; description?: string }
  | { tool: 'TaskUpdate'; taskId: string; status: TaskStatus }
  | { tool: 'TaskList' }
  /**
   * A foreground subagent (`run_in_background: false`): its own requests are answered by
   * `actions` (their final text is its report, which returns to the main session as the tool's
   * result); `prompt` must be unique in the scenario, since it keys the subagent's rules.
   */
  | { tool: 'Agent'; description: string; prompt: string; subagentType?: string; actions: Action[] }
  | { text: string }
) & { inputTokens?: number };

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

/**
 * A step of a session: a turn, a reset in the middle of the work (the probed reset is not a
 * step), or `shell`: something the user does in another terminal between two turns (a branch
 * switch, a teammate's capsule arriving), run by the driver in the session's folder.
 */
export type Step = Turn | { reset: 'compact' | 'clear' } | ShellStep;

/** A command the driver runs (sh -c) outside the client, in `cwd` (relative to the repository; default: the session's folder). */
export interface ShellStep {
  shell: string;
  cwd?: string;
  env?: Record<string, string>;
}

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
  /** The folder the client runs in, relative to the repository (a worktree made by `setup`, e.g. `../repo-b`). */
  cwd?: string;
  /** Variables for this session's client (e.g. `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`). */
  env?: Record<string, string>;
  /**
   * `claude --resume <id>` of the named earlier session: this client starts (at its first step)
   * on that session's newest id, after the earlier client has exited.
   */
  resumes?: string;
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
  probe: {
    resets: Reset[];
    prompt: string;
    session?: string;
    /** Other sessions that reset at the same moment as the probed one (two worktrees clearing at once). */
    alsoReset?: string[];
  };
  /** What the scripted summariser answers to a compaction request (default: a plain summary). */
  compactSummary?: string;
  /**
   * The answers to the first, second, … compaction requests (manual or automatic), before
   * `compactSummary` answers the rest. After an automatic compaction in the middle of a turn the
   * turn's prompt is only in the summary, and the rest of the turn is keyed on it: a summary
   * must quote the prompt of the turn it interrupts (as the client's compact prompt asks: "all
   * user messages").
   */
  compactSummaries?: string[];
  /**
   * Commands run (sh -c) in the repository after its first commit, before any session starts
   * (worktrees, a teammate's capsule). `{{ulid:NAME:MINUTES_AGO}}` and `{{iso:MINUTES_AGO}}`
   * anywhere in the scenario become a ULID and an ISO-8601 time of that many minutes before the
   * run (the same ULID for the same NAME), and `$CAPSULE_CLI` is the CLI under test.
   */
  setup?: ShellStep[];
  /**
   * Run through one long-lived stream-json client process per session (the concurrent driver)
   * even when there is one session; implied by setup, shell steps, cwd, env and resumes.
   */
  live?: boolean;
  facts: Fact[];
  antiFacts: AntiFact[];
}

/** True when a step is a reset, not a turn. */
export function isReset(step: Step): step is { reset: 'compact' | 'clear' } {
  return 'reset' in step;
}

/** True when a step is a command run outside the client. */
export function isShell(step: Step): step is ShellStep {
  return 'shell' in step;
}

/** True when a step is a turn (a prompt and the model's actions). */
export function isTurn(step: Step): step is Turn {
  return 'prompt' in step;
}

/** True when the scenario needs one long-lived client process per session (see `Scenario.live`). */
export function needsLiveSessions(s: Scenario): boolean {
  return (
    s.live === true ||
    s.sessions.length !== 1 ||
    (s.setup?.length ?? 0) > 0 ||
    s.sessions.some((x) => x.cwd !== undefined || x.env !== undefined || x.resumes !== undefined || x.steps.some(isShell))
  );
}
