import type { CallOutcome } from '../../transcript/tool-call-events';
import type { TranscriptRecord } from '../../transcript/records';
import { patchFiles } from '../patch-files';

/** One unit of work read from a Copilot `events.jsonl`, in the order the model did it. */
export type CopilotStep =
  | { kind: 'prompt'; text: string; id?: string; timestamp?: string }
  | { kind: 'assistant'; text: string; id?: string; timestamp?: string }
  | { kind: 'shell'; id: string; command: string; cwd?: string; outcome: CallOutcome; exitCode?: number; output: string; timestamp?: string }
  | { kind: 'file'; id: string; tool: 'Read' | 'Write' | 'Edit'; files: string[]; cwd?: string; outcome: CallOutcome; output: string; timestamp?: string };

/** A tool request of an `assistant.message`. */
interface ToolRequest {
  toolCallId?: unknown;
  name?: unknown;
  arguments?: unknown;
}

/** A `tool.execution_complete`'s data. */
interface ToolResult {
  success?: unknown;
  shellExecution?: { exitCode?: unknown };
  result?: { content?: unknown };
  error?: unknown;
}

const SHELL_TOOLS = new Set(['bash', 'powershell']);
const READ_TOOLS = new Set(['view']);
const WRITE_TOOLS = new Set(['create']);
const EDIT_TOOLS = new Set(['edit', 'str_replace', 'str_replace_editor', 'insert']);
// The line the bash tool ends its result with: `<shellId: 0 completed with exit code 1>`.
const SHELL_TRAILER = /\n?<shellId: [^>]*completed with exit code (-?\d+)>\s*$/;

/**
 * Reads a Copilot CLI 1.0.102 transcript delta (test/fixtures/copilot) into steps: typed
 * prompts (`user.message` content, without slash commands), the assistant's text, and its tool
 * calls (`assistant.message` toolRequests) with their outcome from `tool.execution_complete`
 * (a shell's exit code, else `success`); a call with no result yet is pending. The `model.*`
 * lines a compaction writes replay earlier turns for the summariser and are skipped, like the
 * hook and session bookkeeping lines. Never throws.
 */
export function copilotSteps(records: TranscriptRecord[]): CopilotStep[] {
  const results = new Map<string, ToolResult>();
  for (const { data } of records) {
    const line = data as { type?: unknown; data?: { toolCallId?: unknown } };
    if (line.type === 'tool.execution_complete' && typeof line.data?.toolCallId === 'string') results.set(line.data.toolCallId, line.data as ToolResult);
  }
  const steps: CopilotStep[] = [];
  let cwd: string | undefined;
  for (const { data } of records) {
    const line = data as { type?: unknown; id?: unknown; timestamp?: unknown; data?: Record<string, unknown> };
    const d = line.data;
    if (typeof d !== 'object' || d === null) continue;
    const timestamp = typeof line.timestamp === 'string' ? line.timestamp : undefined;
    const id = typeof line.id === 'string' ? line.id : undefined;
    if (line.type === 'session.start' || line.type === 'session.resume') {
      const context = d.context as { cwd?: unknown } | undefined;
      if (typeof context?.cwd === 'string') cwd = context.cwd;
    } else if (line.type === 'user.message' && typeof d.content === 'string') {
      const text = d.content.trim();
      if (text !== '' && !text.startsWith('/')) steps.push({ kind: 'prompt', text, id, timestamp });
    } else if (line.type === 'assistant.message') {
      if (typeof d.content === 'string' && d.content.trim() !== '') steps.push({ kind: 'assistant', text: d.content.trim(), id, timestamp });
      for (const request of Array.isArray(d.toolRequests) ? (d.toolRequests as ToolRequest[]) : []) {
        const step = callStep(request, results, { cwd, timestamp });
        if (step !== null) steps.push(step);
      }
    }
  }
  return steps;
}

function callStep(request: ToolRequest, results: Map<string, ToolResult>, at: { cwd?: string; timestamp?: string }): CopilotStep | null {
  if (typeof request.toolCallId !== 'string' || typeof request.name !== 'string') return null;
  const id = request.toolCallId;
  const args = argumentsOf(request.arguments);
  const result = results.get(id);
  const content = typeof result?.result?.content === 'string' ? result.result.content : typeof result?.error === 'string' ? result.error : '';
  if (SHELL_TOOLS.has(request.name)) {
    if (typeof args.command !== 'string' || args.command.trim() === '') return null;
    const trailer = SHELL_TRAILER.exec(content);
    const reported = result?.shellExecution?.exitCode;
    const exitCode = typeof reported === 'number' ? reported : trailer ? Number(trailer[1]) : undefined;
    const outcome: CallOutcome = result === undefined ? 'pending' : exitCode !== undefined ? (exitCode === 0 ? 'ok' : 'error') : result.success === false ? 'error' : 'ok';
    return { kind: 'shell', id, command: args.command, cwd: at.cwd, outcome, exitCode, output: content.replace(SHELL_TRAILER, ''), timestamp: at.timestamp };
  }
  const tool = READ_TOOLS.has(request.name) ? 'Read' : WRITE_TOOLS.has(request.name) ? 'Write' : EDIT_TOOLS.has(request.name) ? 'Edit' : request.name === 'apply_patch' ? 'Edit' : null;
  if (tool === null) return null;
  const patch = typeof request.arguments === 'string' ? request.arguments : typeof args.input === 'string' ? args.input : null;
  const files = request.name === 'apply_patch' ? (patch === null ? [] : patchFiles(patch)) : typeof args.path === 'string' && args.path !== '' ? [args.path] : [];
  if (files.length === 0) return null;
  const outcome: CallOutcome = result === undefined ? 'pending' : result.success === false ? 'error' : 'ok';
  return { kind: 'file', id, tool, files, cwd: at.cwd, outcome, output: content, timestamp: at.timestamp };
}

function argumentsOf(value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value !== 'string') return {};
  try {
    const parsed = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
