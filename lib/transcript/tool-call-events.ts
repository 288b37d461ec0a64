import { analyseBashCommand } from './bash-command';
import { clipText, displayPath } from './work-event-text';
import type { WorkEvent } from './work-event-types';

/** A tool_use block with where it was recorded. */
export interface ToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  cwd?: string;
  uuid?: string;
  timestamp?: string;
}

/** Where file paths are made relative: the project's top folder and the user's home folder. */
export interface PathContext {
  projectRoot?: string;
  homeDir?: string;
}

/** How the call ended: its result was an error, was not, or is not in the records yet. */
export type CallOutcome = 'ok' | 'error' | 'pending';

const FILE_READERS = new Set(['Read', 'NotebookRead']);
const FILE_WRITERS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
// Claude Code's subagent launcher was `Task` and is `Agent` in 2.1.332 (transcript-sample.jsonl).
const SUBAGENT_TOOLS = new Set(['Agent', 'Task']);

/**
 * The work-state events one tool call evidences. A call whose result was an error changed
 * nothing, so it yields no file, git or environment event (the error itself is reported from
 * the result); a pending call is taken at its word.
 */
export function describeToolCall(call: ToolCall, outcome: CallOutcome, where: PathContext = {}): WorkEvent[] {
  const at = { uuid: call.uuid, timestamp: call.timestamp };
  const input = call.input;
  const file = str(input.file_path) ?? str(input.notebook_path);
  if (outcome === 'error') return [];
  if (FILE_READERS.has(call.name) && file !== undefined) {
    const path = displayPath(file, { cwd: call.cwd, ...where });
    return [{ kind: 'file-read', text: path, path, ...at }];
  }
  if (FILE_WRITERS.has(call.name) && file !== undefined) {
    const path = displayPath(file, { cwd: call.cwd, ...where });
    return [{ kind: 'file-modified', text: `${path} (${call.name})`, path, ...at }];
  }
  if (call.name === 'Bash' && typeof input.command === 'string') return bashEvents(input.command, call, at, where);
  if (call.name === 'TodoWrite' && Array.isArray(input.todos)) {
    return input.todos
      .filter((t): t is Record<string, unknown> => typeof t === 'object' && t !== null)
      .map((t) => ({ kind: 'task' as const, text: `[${str(t.status) ?? 'pending'}] ${str(t.content) ?? str(t.subject) ?? '?'}`, ...at }));
  }
  if (call.name === 'TaskCreate') return [{ kind: 'task', text: `[created] ${str(input.subject) ?? str(input.description) ?? '?'}`, ...at }];
  if (call.name === 'TaskUpdate') {
    const what = str(input.subject) ?? `task ${str(input.taskId) ?? str(input.id) ?? '?'}`;
    return [{ kind: 'task', text: `[${str(input.status) ?? 'updated'}] ${what}`, ...at }];
  }
  if (call.name === 'TaskStop') return [{ kind: 'task', text: `[stopped] task ${str(input.task_id) ?? str(input.shell_id) ?? '?'}`, ...at }];
  if (SUBAGENT_TOOLS.has(call.name)) return [{ kind: 'task', text: `[subagent] ${str(input.description) ?? str(input.prompt) ?? '?'}`, ...at }];
  if (call.name === 'ExitPlanMode' && outcome === 'ok') return [{ kind: 'decision', text: `plan approved: ${str(input.plan) ?? ''}`, ...at }];
  return [];
}

function bashEvents(command: string, call: ToolCall, at: Pick<WorkEvent, 'uuid' | 'timestamp'>, where: PathContext): WorkEvent[] {
  const effects = analyseBashCommand(command);
  const events: WorkEvent[] = effects.written.map((f) => {
    const path = displayPath(f, { cwd: call.cwd, ...where });
    return { kind: 'file-modified', text: `${path} (Bash: ${clipText(command, 80)})`, path, ...at };
  });
  for (const g of effects.git) events.push({ kind: 'git', text: g, ...at });
  for (const e of effects.environment) events.push({ kind: 'environment', text: e, ...at });
  return events;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
