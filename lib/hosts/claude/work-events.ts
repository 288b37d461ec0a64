import { contentBlocks, toolResultText, type ContentBlock, type TranscriptRecord } from '../../transcript/records';
import { readStatements } from '../../transcript/assistant-statements';
import { commandShape } from '../../transcript/command-shape';
import { errorLine } from '../../transcript/error-line';
import { normalizeDescription, resolutionBy, type OpenFailure, type SuccessEvidence } from '../../transcript/failure-pairing';
import { readPrompt } from '../../transcript/prompt-intent';
import { readRunnerReport } from '../../transcript/runner-report';
import { describeToolCall, type PathContext, type ToolCall } from '../../transcript/tool-call-events';
import { clipText, displayPath, firstLines } from '../../transcript/work-event-text';
import { MAX_OPEN_FAILURES, MAX_SEEN_PROMPTS, type ExtractWorkEventsOptions, type WorkCarry, type WorkEvent, type WorkState } from '../../transcript/work-event-types';
import { typedPromptText } from './user-prompt';

export type { WorkEvent, WorkEventKind, ExtractWorkEventsOptions, WorkState, WorkCarry } from '../../transcript/work-event-types';

// Typed prompts that turn the agent away from what it was doing.
const CORRECTION = /^\s*(?:no\b|nope\b|don'?t\b|do not\b|stop\b|wrong\b|that'?s not\b|that is not\b|not that\b|instead\b|revert\b|undo\b)/i;
// Sentences that record a choice, from the user or the agent.
const DECISION = /\b(?:let'?s (?:go with|use|keep|switch to)|go with|decided to|we(?:'ll| will) use|i(?:'ll| will) (?:use|go with|switch to)|use .{1,60} instead\b|switch(?:ing)? to)\b/i;
const DENIAL = /doesn'?t want to proceed|haven'?t granted|permission (?:denied|to use .* has been denied)|was rejected/i;
const CHECK_KINDS = new Set(['test', 'lint', 'typecheck', 'build']);

/** One turn being read: from a prompt (or a notification) to the next. */
interface Turn {
  /** The last assistant text after the turn's last tool call: its final message so far. */
  finalText?: string;
  didWork: boolean;
}

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
  const events: WorkEvent[] = [];
  const seen = new Set<string>();
  const emit = (e: WorkEvent) => {
    const text = clipText(e.text);
    const key = `${e.kind}\u0000${e.path ?? ''}\u0000${e.resolves ?? ''}\u0000${text}`;
    // Contract events repeat on purpose (the same next step restated after other events).
    if (!CONTRACT_KINDS.has(e.kind)) {
      if (seen.has(key)) return;
      seen.add(key);
    }
    events.push({ ...e, text });
  };
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
      }
      const notification = d.origin?.kind === 'task-notification' ? taskNotification(d.message?.content) : null;
      if (notification !== null) {
        endTurn(turn.finalText);
        turn = { didWork: false };
        emit(notification.failed ? { kind: 'error', text: `background: ${notification.text}`, ...at } : { kind: 'done', text: `background: ${notification.text}`, ...at });
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
  if (tail !== undefined && tail.trim() !== (turn.finalText ?? '').trim()) {
    const decision = decisionSentence(tail);
    if (decision !== null) emit({ kind: 'decision', text: decision });
  }
  // The host's own list of running jobs, before the turn's last words: a closing question outranks it.
  if (opts.backgroundTasks !== undefined) {
    const running = opts.backgroundTasks.filter((t) => t && (t.status === undefined || t.status === 'running' || t.status === 'pending'));
    if (running.length > 0) emit({ kind: 'waiting', source: 'background', text: running.map((t) => `"${clipText(t.description ?? t.command ?? 'a command', 100)}" (running)`).join('; ') });
    else emit({ kind: 'waiting-cleared', source: 'background', text: 'no background task is running' });
  }
  endTurn(tail ?? turn.finalText);
  return {
    events,
    carry: { openFailures: failures.slice(-MAX_OPEN_FAILURES), lastTurnDone, seenPrompts: seenPrompts.slice(-MAX_SEEN_PROMPTS) },
  };
}

const CONTRACT_KINDS = new Set(['next-step', 'progress', 'question', 'waiting', 'waiting-cleared', 'user-request']);

// What the final message of a turn says; returns whether it reported something finished.
function endOfTurn(turn: Turn, finalText: string | undefined, emit: (e: WorkEvent) => void): boolean {
  if (finalText === undefined || finalText.trim() === '') {
    if (turn.didWork) emit({ kind: 'progress', text: 'the turn did work without stating a next step' });
    return false;
  }
  const said = readStatements(finalText);
  for (const d of said.done) emit({ kind: 'done', text: `reported: ${d}` });
  if (said.nextStep !== undefined) emit({ kind: 'next-step', text: said.nextStep });
  else if (turn.didWork) emit({ kind: 'progress', text: 'the turn did work without stating a next step' });
  if (said.waiting !== undefined && said.waiting !== said.question) emit({ kind: 'waiting', source: 'ci', text: said.waiting });
  if (said.question !== undefined) emit({ kind: 'question', text: said.question });
  return said.done.length > 0;
}

function userRequest(text: string, previousDone: boolean, at: Pick<WorkEvent, 'uuid' | 'timestamp'>, emit: (e: WorkEvent) => void): void {
  // Slash commands manage the session (or expand into prompts the transcript holds as meta rows).
  if (text.trimStart().startsWith('/')) return;
  const read = readPrompt(text);
  emit({ kind: 'user-request', intent: read.intent, text: read.task ?? text, ...(read.intent === 'task' ? { previousDone } : {}), ...at });
  if (CORRECTION.test(text)) emit({ kind: 'rejected', text: `user correction: ${text}`, ...at });
  else if (DECISION.test(text.slice(0, 2000))) emit({ kind: 'decision', text: `user: ${text}`, ...at });
}

function recordFailure(
  failures: OpenFailure[],
  call: ToolCall | undefined,
  toolUseId: string,
  output: string,
  where: PathContext,
  at: Pick<WorkEvent, 'uuid' | 'timestamp'>,
  emit: (e: WorkEvent) => void,
): OpenFailure[] {
  const exit = /^Exit code (\d+)/.exec(output.slice(0, 40))?.[1];
  const label = `${call ? callLabel(call, where) : 'a tool'}${exit ? ` (exit ${exit})` : ''}`;
  const line = errorLine(output) || firstLines(output) || 'no output';
  const text = clipText(`${label}: ${line}`);
  const failure: OpenFailure = { text, signature: call ? callSignature(call, where) : toolUseId, ...(call ? bashShape(call) : {}) };
  const report = call?.name === 'Bash' ? readRunnerReport(output) : undefined;
  if (report && report.failedFiles.length > 0) failure.files = report.failedFiles;
  emit({ kind: 'error', text, ...at });
  // Re-inserted last, so the bound forgets the oldest first.
  return [...failures.filter((f) => f.signature !== failure.signature), failure];
}

function recordSuccess(failures: OpenFailure[], call: ToolCall, output: string, where: PathContext, at: Pick<WorkEvent, 'uuid' | 'timestamp'>, emit: (e: WorkEvent) => void): OpenFailure[] {
  const shape = bashShape(call);
  const isCheck = shape.kind !== undefined && CHECK_KINDS.has(shape.kind);
  // Read only where it can matter: a check's summary for Done, passing files to pair a failure.
  const report = call.name === 'Bash' && (isCheck || failures.length > 0) ? readRunnerReport(output) : undefined;
  const evidence: SuccessEvidence = { signature: callSignature(call, where), label: callLabel(call, where), ...shape, ...(report ? { report } : {}) };
  const left: OpenFailure[] = [];
  for (const f of failures) {
    const by = resolutionBy(evidence, f);
    if (by === null) left.push(f);
    else emit({ kind: 'resolution', text: by, resolves: f.text, ...at });
  }
  // A check that passes is done: what now passes is part of the work state.
  if (isCheck && !(report?.failed !== undefined && report.failed > 0)) {
    emit({ kind: 'done', text: `${evidence.label} passed${report?.summary ? ` (${report.summary})` : ''}`, ...at });
  }
  return left;
}

function bashShape(call: ToolCall): Pick<OpenFailure, 'family' | 'args' | 'kind' | 'description'> {
  if (call.name !== 'Bash' || typeof call.input.command !== 'string') return {};
  const shape = commandShape(call.input.command);
  const description = normalizeDescription(call.input.description);
  return { ...(shape ? { family: shape.family, args: shape.args, kind: shape.kind } : {}), ...(description ? { description } : {}) };
}

function isFailure(block: ContentBlock): boolean {
  return block.is_error === true || /^Exit code [1-9]\d*/.test(toolResultText(block).slice(0, 40));
}

function isOpenFailure(value: unknown): value is OpenFailure {
  const f = value as Partial<OpenFailure> | null;
  return typeof f === 'object' && f !== null && typeof f.text === 'string' && typeof f.signature === 'string';
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

function callLabel(call: ToolCall, where: PathContext): string {
  const command = call.input.command;
  if (call.name === 'Bash' && typeof command === 'string') return `\`${clipText(command, 80)}\``;
  const path = call.input.file_path ?? call.input.notebook_path ?? call.input.path;
  return typeof path === 'string' ? `${call.name} ${displayPath(path, { cwd: call.cwd, ...where })}` : call.name;
}

// The same command, or the same file touched by an editing tool, counts as the same attempt.
function callSignature(call: ToolCall, where: PathContext): string {
  const command = call.input.command;
  if (typeof command === 'string') return `${call.name}:${command.slice(0, 4000).replace(/\s+/g, ' ').trim()}`;
  const path = call.input.file_path ?? call.input.notebook_path ?? call.input.path;
  const tool = ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'].includes(call.name) ? 'edit' : call.name;
  return typeof path === 'string' ? `${tool}:${displayPath(path, { cwd: call.cwd, ...where })}` : `${call.name}:${JSON.stringify(call.input).slice(0, 200)}`;
}

function denialReason(output: string): string {
  const said = /the user said:\s*([\s\S]+)/i.exec(output.slice(0, 4000));
  return firstLines(said ? said[1]! : output, 2);
}

function decisionSentence(text: string): string | null {
  for (const sentence of text.slice(0, 8000).split(/(?<=[.!?])\s+|\n+/)) if (sentence.length <= 400 && DECISION.test(sentence)) return sentence.trim();
  return null;
}

function taskNotification(content: unknown): { text: string; failed: boolean } | null {
  if (typeof content !== 'string') return null;
  const tag = (name: string) => {
    const open = content.indexOf(`<${name}>`);
    const close = open === -1 ? -1 : content.indexOf(`</${name}>`, open);
    return close === -1 ? undefined : content.slice(open + name.length + 2, close).trim();
  };
  const summary = tag('summary');
  if (summary === undefined) return null;
  const status = tag('status') ?? '';
  return { text: status && !summary.includes(status) ? `${summary} (${status})` : summary, failed: /^(?:failed|killed|error)/i.test(status) };
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
