import { contentBlocks, toolResultText, type ContentBlock, type TranscriptRecord } from '../../transcript/records';
import { typedPromptText } from './user-prompt';
import { CORRECTION, DECISION, decisionSentence } from '../../transcript/prompt-signals';
import { describeToolCall, type ToolCall } from '../../transcript/tool-call-events';
import { createEventSink, finishWorkState } from '../../transcript/event-sink';
import { clipText, firstLines } from '../../transcript/work-event-text';
import { tagContent } from '../../transcript/xml-tag';
import { type ExtractWorkEventsOptions, type WorkEvent, type WorkState } from '../../transcript/work-event-types';

export type { WorkEvent, WorkEventKind, ExtractWorkEventsOptions, WorkState } from '../../transcript/work-event-types';

// Built-in commands that manage the session rather than ask for work.
const SESSION_COMMANDS = new Set(['/compact', '/clear', '/resume', '/cost', '/context', '/exit']);
// Bounded between its words: an unbounded `.*` re-scans the line at every "permission to use".
const DENIAL = /doesn'?t want to proceed|haven'?t granted|permission (?:denied|to use [^\n]{0,300}? has been denied)|was rejected/i;

/**
 * Extracts work-state events (files read and modified, errors and their resolutions, rejected
 * approaches, tasks, decisions, git operations, environment changes, the last user request) from
 * main-chain transcript records, in record order; sidechain records are ignored. Never throws.
 *
 * @example
 * const { records } = parseTranscriptChunk(delta, { baseLine });
 * const events = extractWorkEvents(records, { lastAssistantMessage: input.last_assistant_message });
 */
export function extractWorkEvents(records: TranscriptRecord[], opts: ExtractWorkEventsOptions = {}): WorkEvent[] {
  return extractWorkState(records, opts).events;
}

/**
 * extractWorkEvents, plus the failures still open at the end (to pass with the next delta):
 * the autosave reads one delta per Stop, and a fix often lands a turn after the failure.
 * Never throws.
 */
export function extractWorkState(records: TranscriptRecord[], opts: ExtractWorkEventsOptions = {}): WorkState {
  const main = records.filter((r) => r.data.isSidechain !== true);
  const results = resultsById(main);
  const lastTodo = lastIndexOfTool(main, 'TodoWrite');
  const calls = new Map<string, ToolCall>();
  const failures = new Map<string, string>(Object.entries(opts.openFailures ?? {}));
  const sink = createEventSink();
  const { emit } = sink;
  let lastRequest: WorkEvent | undefined;
  let lastAssistantText = '';
  let branch: string | undefined;

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
          lastAssistantText = block.text;
          const decision = decisionSentence(block.text);
          if (decision !== null) emit({ kind: 'decision', text: decision, ...at });
        } else if (block.type === 'tool_use' && typeof block.id === 'string') {
          const call: ToolCall = { id: block.id, name: block.name ?? '?', input: block.input ?? {}, cwd: d.cwd, ...at };
          calls.set(call.id, call);
          const result = results.get(call.id);
          if (call.name === 'TodoWrite' && index !== lastTodo) continue;
          for (const e of describeToolCall(call, result === undefined ? 'pending' : result.is_error ? 'error' : 'ok')) emit(e);
        }
      }
    } else if (d.type === 'user') {
      for (const block of contentBlocks(d)) {
        if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
        const call = calls.get(block.tool_use_id);
        const output = firstLines(toolResultText(block));
        const label = call ? callLabel(call) : 'a tool';
        const signature = call ? callSignature(call) : block.tool_use_id;
        const failed = block.is_error === true || /^Exit code [1-9]\d*/.test(output);
        const denied = failed && (d.toolDenialKind !== undefined || d.permissionDecision?.decision === 'reject' || DENIAL.test(output));
        if (denied) emit({ kind: 'rejected', text: `denied: ${label} — ${denialReason(toolResultText(block))}`, ...at });
        else if (failed) {
          failures.delete(signature); // re-inserted last: the bound forgets the oldest first
          failures.set(signature, output);
          emit({ kind: 'error', text: `${label} failed: ${output || 'no output'}`, ...at });
        } else if (failures.has(signature)) {
          emit({ kind: 'resolution', text: `${label} now succeeds (was: ${failures.get(signature) || 'an error'})`, ...at });
          failures.delete(signature);
        }
        if (call && call.name === 'AskUserQuestion' && !failed) emit({ kind: 'decision', text: output, ...at });
      }
      // Only a task notification is read for tags (gated by its kind, never every prompt a user pastes).
      const notification = d.origin?.kind === 'task-notification' ? taskNotification(d.message?.content) : null;
      if (notification !== null) emit({ kind: 'task', text: notification, ...at });
      const prompt = typedPromptText(d);
      if (prompt !== null && !SESSION_COMMANDS.has(prompt.split(' ')[0]!)) {
        lastRequest = { kind: 'user-request', text: clipText(prompt), ...at };
        if (CORRECTION.test(prompt)) emit({ kind: 'rejected', text: `user correction: ${prompt}`, ...at });
        else if (DECISION.test(prompt)) emit({ kind: 'decision', text: `user: ${prompt}`, ...at });
      }
    } else if (d.type === 'attachment' && d.attachment?.type === 'environment') {
      const change = environmentChange(d.attachment);
      if (change !== null) emit({ kind: 'environment', text: change, ...at });
    }
  });
  return finishWorkState(sink, { lastAssistantMessage: opts.lastAssistantMessage, lastAssistantText, lastRequest, failures });
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

function callLabel(call: ToolCall): string {
  const command = call.input.command;
  if (call.name === 'Bash' && typeof command === 'string') return `Bash \`${clipText(command, 120)}\``;
  const path = call.input.file_path ?? call.input.notebook_path ?? call.input.path;
  return typeof path === 'string' ? `${call.name} ${path}` : call.name;
}

// The same command or the same tool on the same file counts as the same attempt.
function callSignature(call: ToolCall): string {
  const command = call.input.command;
  if (typeof command === 'string') return `${call.name}:${command.replace(/\s+/g, ' ').trim()}`;
  const path = call.input.file_path ?? call.input.notebook_path ?? call.input.path;
  return typeof path === 'string' ? `${call.name}:${path}` : `${call.name}:${JSON.stringify(call.input).slice(0, 200)}`;
}

function denialReason(output: string): string {
  const said = /the user said:\s*([\s\S]+)/i.exec(output);
  return firstLines(said ? said[1]! : output, 2);
}

function taskNotification(content: unknown): string | null {
  if (typeof content !== 'string') return null;
  const summary = tagContent(content, 'summary');
  if (summary === undefined) return null;
  const status = tagContent(content, 'status');
  return status ? `${summary} (${status})` : summary;
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
