import type { LineageRecord } from '../local-state/lineage-record';
import type { LineageSignal } from '../local-state/lineage-signal';
import type { ContextFill } from '../budget/context-fill';
import type { NativePointResult } from '../budget/native-point';
import type { TextLimit } from '../resume/text-limit';
import type { RawTranscriptRecord, TranscriptRecord } from '../transcript/records';
import type { ExtractWorkEventsOptions, WorkState } from '../transcript/work-event-types';
import type { HookAnswer } from './hook-answer';
import type { HookInputCheck, HookInputs } from './hook-inputs';

/** The host events git-capsule handles, by the name both hosts give them. */
export const HOOK_EVENT_NAMES = ['SessionStart', 'Stop', 'PreCompact', 'PostCompact', 'UserPromptSubmit', 'SessionEnd'] as const;

/** One of the host events git-capsule handles. */
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number] & keyof HookInputs;

/**
 * One event as a host runs it: the bundle (`dist/hooks/<file>.js`), the timeout written into
 * the host's registration (seconds), and the runner's own budget (ms), kept well below it so a
 * slow git or a stuck child never turns into a host-side kill: the runner answers first and
 * fails open.
 */
export interface HostEventSpec {
  file: string;
  hostTimeoutSec: number;
  budgetMs: number;
  /**
   * Registered to run in the background (Claude Code's `"asyncRewake": true`): a live session
   * does not wait for it, and its exit 2 wakes the model with its stderr; a plain `claude -p`
   * still runs it in the foreground, so it finishes before that client exits.
   */
  asyncRewake?: true;
}

/**
 * The events a host runs: every one of them, except PostCompact, which only a host that hands
 * over the compaction summary registers (Claude Code; Codex's PostCompact carries none).
 */
export type HostEvents = { readonly [E in Exclude<HookEventName, 'PostCompact'>]: HostEventSpec } & { readonly PostCompact?: HostEventSpec };

/**
 * The transcript half of an adapter: the host's transcript records (one delta) into the core's
 * work events (lib/transcript/work-event-types.ts), and the failures still open after it. Kept
 * apart from HostAdapter so the hook that runs before every prompt never loads a transcript
 * reader: `lib/hooks/work-state-readers.ts` maps a host's name to its reader, and only the
 * hooks that fold the transcript import it. Never throws.
 */
export type HostWorkStateReader = (records: TranscriptRecord[], opts: ExtractWorkEventsOptions) => WorkState;

/**
 * The part of one of the host's transcript records its HostWorkStateReader reads (the reader's
 * result over views equals its result over whole records), so what it never reads is never
 * redacted before extraction. A host without one has every record redacted whole.
 */
export type HostRecordView = (data: RawTranscriptRecord) => RawTranscriptRecord;

/** The fill a host's transcript reports at its end, with the window it reports there. */
export type HostFillRead = { ok: true; fill: ContextFill | null; window: number | null; bytesRead: number } | { ok: false; message: string };

/**
 * What the budget policy (docs/hooks.md "Budgets") needs from a host that is not Claude Code, whose rules
 * live in lib/budget: how full the context is, and where the host compacts by itself.
 */
export interface HostBudget {
  /** The context fill at the end of the transcript, as the host counts it for its own compaction. */
  readFill(transcriptPath: string): HostFillRead;
  /** The host's own compaction point for this project and environment (its config, its client's arguments). */
  nativePoint(opts: { env: NodeJS.ProcessEnv; projectDir: string; window: number | null }): NativePointResult;
}

/** The hosts git-capsule has an adapter for. */
export type HostName = 'claude' | 'codex' | 'copilot';

/**
 * A host adapter: everything the hooks need to know about one host, so the core never learns a
 * host's field names. It turns the host's payloads into the core's typed inputs, and the core's
 * answers into the host's envelope; its HostWorkStateReader turns the transcript into work events.
 * Implemented by `lib/hosts/claude/claude-host.ts`, `lib/hosts/codex/codex-host.ts` and
 * `lib/hosts/copilot/copilot-host.ts`;
 * `lib/hooks/pick-host.ts` chooses one per hook run from declared evidence only.
 */
export interface HostAdapter {
  readonly name: HostName;
  /** The host's name in messages ("Claude Code", "Codex CLI"). */
  readonly label: string;
  /** The events this host runs, with its timeouts and the runner's budgets. */
  readonly events: HostEvents;
  /**
   * Why a payload is none of git-capsule's business (a sub-agent's turn), or null; the runner
   * then says nothing and does nothing.
   */
  ignores?(raw: unknown): string | null;
  /** Checks a payload's fields by type (never coerced) and hands over the core's input. */
  checkInput<E extends HookEventName>(event: E, raw: unknown): HookInputCheck<E>;
  /** The project the hook works on, from the checked payload and the hook's environment. */
  projectDir(input: { cwd: string }, env: NodeJS.ProcessEnv): string;
  /** The answer as this host reads it on stdout for this event ('' for nothing). */
  renderOutput(event: HookEventName, answer: HookAnswer | void): string;
  /** The most text one hook may inject before the host cuts or spills it. */
  readonly injectionLimit: TextLimit;
  /**
   * The lineage signal (lib/local-state/lineage-signal.ts): the client process, the same on
   * both sides of a `/clear` and different for two concurrent sessions; null when the host
   * gives none. The hand-over record is keyed by it.
   */
  lineageSignal(env: NodeJS.ProcessEnv): LineageSignal | null;
  /**
   * The core's SessionStart source (startup, resume, clear, compact) for a host whose own source
   * does not say it (Copilot: `new` both at a fresh start and after `/clear`), from the lineage
   * record of the hook's client process (null when none); absent: the payload's source is the core's.
   */
  sessionSource?(source: string, sessionId: string | undefined, record: LineageRecord | null): string;
  /**
   * The budget's inputs from this host; absent for Claude Code, whose fill and native point
   * lib/budget resolves from its transcript, settings and environment.
   */
  readonly budget?: HostBudget;
  /**
   * Who keeps a Stop block from looping: `host` when the host itself gives up after a block,
   * `ours` when it re-runs Stop for ever (Codex): the runner then drops any block while
   * `stop_hook_active` is set, whatever a handler answered.
   */
  readonly stopLoopGuard: 'host' | 'ours';
  /**
   * Where the resume after a compaction is injected: `session-start` (absent) when the host
   * runs SessionStart(compact) after it; `next-prompt` when it runs nothing after it and
   * drops what was injected at session start (Copilot): PreCompact renders the resume from its
   * checkpoint and the session's next UserPromptSubmit injects it.
   */
  readonly resumeAfterCompact?: 'session-start' | 'next-prompt';
  /**
   * How a Stop block reaches the host: `json`, the envelope on stdout; `exit-2`, the reason on
   * stderr and exit code 2 (Claude Code: the one form a Stop hook running in the background
   * (`asyncRewake`) can block with, and an ordinary block when it runs in the foreground).
   */
  readonly stopBlock: 'json' | 'exit-2';
}
