import { compactSummaryBody } from './compact-summary-body';
import { contentBlocks, toolResultText, type ContentBlock, type TranscriptRecord } from '../../transcript/records';
import { callLabel, isOpenFailure, recordFailure, recordSuccess } from '../../transcript/call-outcomes';
import type { OpenFailure } from '../../transcript/failure-pairing';
import { describeToolCall, type PathContext, type ToolCall } from '../../transcript/tool-call-events';
import { createEventSink, finishWorkState, tailDecision } from '../../transcript/event-sink';
import { decisionSentence } from '../../transcript/prompt-signals';
import { subagentFinding, taskToolEvents, type TaskSubjects } from '../../transcript/task-tools';
import { endOfTurn, userRequest, type Turn } from '../../transcript/turn-events';
import { clipText, firstLines, quoteText } from '../../transcript/work-event-text';
import type { ExtractWorkEventsOptions, WorkEvent, WorkState } from '../../transcript/work-event-types';
import { typedPromptText } from './user-prompt';

export type { WorkEvent, WorkEventKind, ExtractWorkEventsOptions, WorkState, WorkCarry } from '../../transcript/work-event-types';

// Bounded between its words: an unbounded `.*` re-scans the line at every "permission to use".
const DENIAL = /doesn'?t want to proceed|haven'?t granted|permission (?:denied|to use [^\n]{0,300}? has been denied)|was rejected/i;

/**
 * Extracts work-state events (files read and modified, errors and what resolved them, rejected
 * approaches, tasks, decisions, git operations, environment changes, the user's requests with
 * their intent, and what each turn's final message states: done, next step, a question, a
 * wait) from main-chain transcript records, in record order; sidechain records are ignored.
 * Never throws.
 *
 * @example
 * const { records } = parseTranscriptChunk(delta, { baseLine });
 * const events = extractWorkEvents(records, { lastAssistantMessage: input.last_assistant_message });
 */
export function extractWorkEvents(records: TranscriptRecord[], opts: ExtractWorkEventsOptions = {}): WorkEvent[] {
  return extractWorkState(records, opts).events;
}

/**
 * extractWorkEvents, plus what to carry to the next delta (open failures, whether the last turn
 * reported something finished, the prompts already read from the submit-time journal): the
 * autosave reads one delta per Stop, and a fix often lands a turn after the failure.
 * Never throws.
 */
export function extractWorkState(records: TranscriptRecord[], opts: ExtractWorkEventsOptions = {}): WorkState {
  const main = records.filter((r) => r.data.isSidechain !== true);
  const where: PathContext = { projectRoot: opts.projectRoot, homeDir: opts.homeDir };
  const results = resultsById(main);
  const lastTodo = lastIndexOfTool(main, 'TodoWrite');
  const calls = new Map<string, ToolCall>();
  let failures: OpenFailure[] = [...(opts.carry?.openFailures ?? [])].filter(isOpenFailure);
  let lastTurnDone = opts.carry?.lastTurnDone === true;
  const seenPrompts = [...(opts.carry?.seenPrompts ?? [])].filter((p) => typeof p === 'string');
  const subjects: TaskSubjects = { ...validSubjects(opts.carry?.taskSubjects) };
  const sink = createEventSink();
  const { emit } = sink;
  let branch: string | undefined;
  let turn: Turn = { didWork: false };
  const endTurn = (finalText: string | undefined) => {
    lastTurnDone = endOfTurn(turn, finalText, emit) || (lastTurnDone && !turn.didWork && finalText === undefined);
  };
  const prompt = (text: string, at: Pick<WorkEvent, 'uuid' | 'timestamp'>) => {
    endTurn(turn.finalText);
    turn = { didWork: false };
    userRequest(text, lastTurnDone, at, emit);
    lastTurnDone = false;
  };

  main.forEach((record, index) => {
    const d = record.data;
    const at = { uuid: d.uuid, timestamp: d.timestamp };
    if (typeof d.gitBranch === 'string' && d.gitBranch !== '') {
      if (branch !== undefined && d.gitBranch !== branch) emit({ kind: 'git', text: `branch changed: ${branch} → ${d.gitBranch}`, ...at });
      branch = d.gitBranch;
    }
    if (d.type === 'assistant') {
      if (d.isApiErrorMessage === true) {
        emit({ kind: 'error', text: `API error: ${firstLines(contentBlocks(d).map((b) => b.text ?? '').join('\n'))}`, ...at });
        return;
      }
      for (const block of contentBlocks(d)) {
        if (block.type === 'text' && typeof block.text === 'string') {
          turn.finalText = block.text;
          const decision = decisionSentence(block.text);
          if (decision !== null) emit({ kind: 'decision', text: decision, ...at });
        } else if (block.type === 'tool_use' && typeof block.id === 'string') {
          const call: ToolCall = { id: block.id, name: block.name ?? '?', input: block.input ?? {}, cwd: d.cwd, ...at };
          calls.set(call.id, call);
          turn.finalText = undefined;
          turn.didWork = true;
          const result = results.get(call.id);
          if (call.name === 'TodoWrite' && index !== lastTodo) continue;
          if (TASK_TOOLS.has(call.name)) {
            if (result === undefined || !isFailure(result)) for (const e of taskToolEvents(call.name, call.input, result && toolResultText(result), subjects)) emit({ ...e, ...at });
            continue;
          }
          // A subagent that has returned is reported from its result below: no open row for it.
          if (SUBAGENT_TOOLS.has(call.name) && result !== undefined && !isFailure(result) && !ASYNC_AGENT.test(toolResultText(result).slice(0, 200))) continue;
          for (const e of describeToolCall(call, result === undefined ? 'pending' : isFailure(result) ? 'error' : 'ok', where)) emit(e);
        }
      }
    } else if (d.type === 'user') {
      for (const block of contentBlocks(d)) {
        if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
        const call = calls.get(block.tool_use_id);
        const output = toolResultText(block);
        const failed = isFailure(block);
        const denied = failed && (d.toolDenialKind !== undefined || d.permissionDecision?.decision === 'reject' || DENIAL.test(output.slice(0, 2000)));
        if (denied) emit({ kind: 'rejected', text: `denied: ${call ? callLabel(call, where) : 'a tool'} — ${denialReason(output)}`, ...at });
        else if (failed) failures = recordFailure(failures, call, block.tool_use_id, output, where, at, emit);
        else if (call) failures = recordSuccess(failures, call, output, where, at, emit);
        if (call && call.name === 'AskUserQuestion' && !failed) emit({ kind: 'decision', text: firstLines(output), ...at });
        if (call && SUBAGENT_TOOLS.has(call.name) && !failed && !ASYNC_AGENT.test(output.slice(0, 200))) {
          // The subagent's report is the main session's finding; its row is closed.
          const description = typeof call.input.description === 'string' && call.input.description !== '' ? call.input.description : 'a subagent';
          emit({ ...subagentFinding(description, output), ...at });
          emit({ kind: 'task', text: `[completed] ${clipText(description)}`, ...at });
        }
      }
      const notification = d.origin?.kind === 'task-notification' ? taskNotification(d.message?.content) : null;
      if (notification !== null) {
        endTurn(turn.finalText);
        turn = { didWork: false };
        emit(notification.failed ? { kind: 'error', text: `background: ${notification.text}`, ...at } : { kind: 'done', text: `background: ${notification.text}`, ...at });
        // A background subagent that returned: its row closes, its report is a finding.
        const agent = /^Agent "(.+?)" (?:finished|completed|failed|stopped)/.exec(notification.text);
        if (agent !== null) {
          if (notification.result !== undefined && !notification.failed) emit({ ...subagentFinding(agent[1]!, notification.result), ...at });
          emit({ kind: 'task', text: `[completed] ${clipText(agent[1]!)}`, ...at });
        }
      }
      if (d.isCompactSummary === true) {
        // The client's own summary of what came before: quoted as evidence, never read as a prompt.
        const summary = compactSummaryBody(contentBlocks(d).map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n') || (typeof d.message?.content === 'string' ? d.message.content : ''));
        if (summary.trim() !== '') emit({ kind: 'compact-summary', text: clipText(summary), quote: quoteText(summary), ...at });
      }
      const typedText = typedPromptText(d);
      if (typedText !== null) {
        const f = fingerprint(typedText);
        const fromJournal = seenPrompts.includes(f);
        if (fromJournal) seenPrompts.splice(seenPrompts.indexOf(f), 1);
        else prompt(typedText, at);
      }
    } else if (d.type === 'attachment' && d.attachment?.type === 'environment') {
      const change = environmentChange(d.attachment);
      if (change !== null) emit({ kind: 'environment', text: change, ...at });
    }
  });
  // Prompts the submit hook recorded that the transcript does not hold yet: the latest turn,
  // which the transcript lags behind (its final message is the Stop payload's).
  const submitted = opts.submittedPrompts ?? [];
  const typed = submitted.length === 0 ? new Set<string>() : new Set(main.map((r) => typedPromptText(r.data)).filter((t): t is string => t !== null).map(fingerprint));
  for (const p of submitted) {
    const f = fingerprint(p);
    if (typed.has(f) || seenPrompts.includes(f)) continue;
    seenPrompts.push(f);
    prompt(p, {});
  }
  const tail = typeof opts.lastAssistantMessage === 'string' && opts.lastAssistantMessage.trim() !== '' ? opts.lastAssistantMessage : undefined;
  tailDecision(sink, tail, turn.finalText ?? '');
  // The host's own list of running jobs, before the turn's last words: a closing question outranks it.
  if (opts.backgroundTasks !== undefined) {
    const running = opts.backgroundTasks.filter((t) => t && (t.status === undefined || t.status === 'running' || t.status === 'pending'));
    if (running.length > 0) emit({ kind: 'waiting', source: 'background', text: running.map((t) => `"${clipText(t.description ?? t.command ?? 'a command', 100)}" (running)`).join('; ') });
    else emit({ kind: 'waiting-cleared', source: 'background', text: 'no background task is running' });
  }
  endTurn(tail ?? turn.finalText);
  return finishWorkState(sink, { openFailures: failures, lastTurnDone, seenPrompts, taskSubjects: subjects });
}

// The task list's tools (Claude Code 2.1.332): read as structure by lib/transcript/task-tools.
const TASK_TOOLS: ReadonlySet<string> = new Set(['TaskCreate', 'TaskUpdate', 'TaskList']);
// Claude Code's subagent launcher was `Task` and is `Agent` in 2.1.332.
const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(['Agent', 'Task']);
// The result of a subagent launched in the background: its report comes later, in a task notification.
const ASYNC_AGENT = /^Async agent launched|\bworking in the background\b/i;

/** The carried id → subject map, trusted only with string values. */
function validSubjects(value: unknown): TaskSubjects {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
}


function isFailure(block: ContentBlock): boolean {
  return block.is_error === true || /^Exit code [1-9]\d*/.test(toolResultText(block).slice(0, 40));
}

// Prompts compare by a short fingerprint: the runtime state keeps no prompt text for this.
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  const s = text.trim().slice(0, 8192); // with the length, the start tells prompts apart
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return `${text.trim().length}:${h.toString(36)}`;
}

function resultsById(records: TranscriptRecord[]): Map<string, ContentBlock> {
  const map = new Map<string, ContentBlock>();
  for (const r of records) {
    if (r.data.type !== 'user') continue;
    for (const b of contentBlocks(r.data)) if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') map.set(b.tool_use_id, b);
  }
  return map;
}

function lastIndexOfTool(records: TranscriptRecord[], name: string): number {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!.data;
    if (r.type === 'assistant' && contentBlocks(r).some((b) => b.type === 'tool_use' && b.name === name)) return i;
  }
  return -1;
}

function denialReason(output: string): string {
  const said = /the user said:\s*([\s\S]+)/i.exec(output.slice(0, 4000));
  return firstLines(said ? said[1]! : output, 2);
}

function taskNotification(content: unknown): { text: string; failed: boolean; result?: string } | null {
  if (typeof content !== 'string') return null;
  const tag = (name: string) => {
    const open = content.indexOf(`<${name}>`);
    const close = open === -1 ? -1 : content.indexOf(`</${name}>`, open);
    return close === -1 ? undefined : content.slice(open + name.length + 2, close).trim();
  };
  const summary = tag('summary');
  if (summary === undefined) return null;
  const status = tag('status') ?? '';
  const result = tag('result');
  return { text: status && !summary.includes(status) ? `${summary} (${status})` : summary, failed: /^(?:failed|killed|error)/i.test(status), ...(result ? { result } : {}) };
}

function environmentChange(attachment: Record<string, unknown>): string | null {
  const changes = attachment.changes;
  const snapshot = attachment.snapshot as Record<string, unknown> | undefined;
  if (!Array.isArray(changes) || snapshot === undefined) return null;
  const parts = changes
    .filter((c): c is { field: string; from: unknown } => typeof c === 'object' && c !== null && typeof c.field === 'string')
    .map((c) => `${c.field}: ${String(snapshot[c.field])} (was ${String(c.from)})`);
  return parts.length > 0 ? parts.join('; ') : null;
}
