import type { CallOutcome } from '../../transcript/tool-call-events';
import type { TranscriptRecord } from '../../transcript/records';
import { patchFiles } from '../patch-files';
import { contentText, pathOfCwd, rolloutLine, type RolloutItem, type RolloutPayload } from './rollout-records';

/** One unit of work read from a rollout, in the order the model did it. */
export type RolloutStep =
  | { kind: 'prompt'; text: string; timestamp?: string }
  | { kind: 'assistant'; text: string; timestamp?: string }
  | { kind: 'shell'; id: string; command: string; cwd?: string; outcome: CallOutcome; exitCode?: number; output: string; reads: string[]; timestamp?: string }
  | { kind: 'patch'; id: string; files: string[]; cwd?: string; outcome: CallOutcome; output: string; timestamp?: string }
  | { kind: 'goal'; text: string; timestamp?: string };

const SHELL_TOOLS = new Set(['exec_command', 'shell', 'local_shell', 'container.exec']);
const EXIT_LINE = /^(?:Process exited with code|Exit code:)\s*(-?\d+)\s*$/m;

/**
 * Reads a rollout delta into steps: typed prompts (`UserMessage` items), assistant messages,
 * shell calls with their outcome, apply_patch calls with the files they changed, and goal
 * updates. A command's exit code comes from its `CommandExecution` item, else from the
 * `Process exited with code N` line of the model's `function_call_output` (PostToolUse never
 * carries it); a call with neither is pending. Never throws.
 */
export function rolloutSteps(records: TranscriptRecord[]): RolloutStep[] {
  const lines = records.map(rolloutLine).filter((l): l is NonNullable<typeof l> => l !== null);
  const outputs = new Map<string, string>();
  const items = new Map<string, RolloutItem>();
  for (const { type, payload } of lines) {
    if (type === 'response_item' && (payload.type === 'function_call_output' || payload.type === 'custom_tool_call_output') && typeof payload.call_id === 'string') {
      outputs.set(payload.call_id, outputText(payload.output));
    } else if (type === 'event_msg' && payload.type === 'item_completed' && typeof payload.item?.id === 'string') {
      items.set(payload.item.id, payload.item);
    }
  }
  const steps: RolloutStep[] = [];
  let cwd: string | undefined;
  for (const { type, payload, timestamp } of lines) {
    if (type === 'turn_context' || type === 'session_meta') cwd = pathOfCwd(payload.cwd) ?? cwd;
    else if (type === 'compacted') dropSummary(steps, payload.message);
    else if (type === 'event_msg' && payload.type === 'item_completed' && payload.item?.type === 'UserMessage') {
      const text = contentText(payload.item.content).trim();
      if (text !== '') steps.push({ kind: 'prompt', text, timestamp });
    } else if (type === 'response_item' && payload.type === 'message' && payload.role === 'assistant') {
      const text = contentText(payload.content).trim();
      if (text !== '') steps.push({ kind: 'assistant', text, timestamp });
    } else if (type === 'response_item' && typeof payload.call_id === 'string') {
      const step = callStep(payload, { cwd, output: outputs.get(payload.call_id), item: items.get(payload.call_id), timestamp });
      if (step !== null) steps.push(step);
    }
  }
  return steps;
}

function callStep(p: RolloutPayload, at: { cwd?: string; output?: string; item?: RolloutItem; timestamp?: string }): RolloutStep | null {
  const id = p.call_id!;
  if (p.type === 'function_call' && typeof p.name === 'string' && SHELL_TOOLS.has(p.name)) {
    const args = parseArguments(p.arguments);
    const command = commandText(args.cmd ?? args.command);
    if (command === null) return null;
    const item = at.item?.type === 'CommandExecution' ? at.item : undefined;
    const cwd = pathOfCwd(args.workdir) ?? pathOfCwd(item?.cwd) ?? at.cwd;
    const exitCode = typeof item?.exit_code === 'number' ? item.exit_code : exitFromOutput(at.output);
    const output = typeof item?.aggregated_output === 'string' ? item.aggregated_output : outputBody(at.output);
    const outcome: CallOutcome = exitCode === undefined ? (item?.status === 'failed' ? 'error' : 'pending') : exitCode === 0 ? 'ok' : 'error';
    const reads = (item?.parsed_cmd ?? []).filter((c) => c?.type === 'read' && typeof c.path === 'string').map((c) => c.path as string);
    return { kind: 'shell', id, command, cwd, outcome, exitCode, output, reads, timestamp: at.timestamp };
  }
  if (p.type === 'custom_tool_call' && p.name === 'apply_patch' && typeof p.input === 'string') {
    const change = at.item?.type === 'FileChange' ? at.item : undefined;
    const files = change?.changes ? Object.keys(change.changes) : patchFiles(p.input);
    const exitCode = exitFromOutput(at.output);
    const failed = change?.status === 'failed' || (exitCode !== undefined && exitCode !== 0);
    const done = change?.status === 'completed' || exitCode === 0;
    const output = change ? [change.stderr, change.stdout].filter((s) => typeof s === 'string' && s !== '').join('\n') : outputBody(at.output);
    return { kind: 'patch', id, files, cwd: at.cwd, outcome: failed ? 'error' : done ? 'ok' : 'pending', output, timestamp: at.timestamp };
  }
  if (p.type === 'function_call' && (p.name === 'create_goal' || p.name === 'update_goal')) {
    const args = parseArguments(p.arguments);
    const text = p.name === 'create_goal' ? `[goal] ${str(args.objective) ?? '?'}` : `[goal ${str(args.status) ?? 'updated'}] ${str(args.reason) ?? str(args.summary) ?? 'the current goal'}`;
    return { kind: 'goal', text, timestamp: at.timestamp };
  }
  return null;
}

// The compaction's summary is streamed as an ordinary assistant message just before the
// `compacted` record that quotes it: it is the summariser's text, not the agent's.
function dropSummary(steps: RolloutStep[], message: unknown): void {
  const last = steps[steps.length - 1];
  if (last?.kind === 'assistant' && typeof message === 'string' && message.endsWith(last.text)) steps.pop();
}

export { patchFiles } from '../patch-files';

function parseArguments(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string') return {};
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

// `cmd` is a string for exec_command; the older `shell` tool passes argv (`["bash","-lc","…"]`).
function commandText(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (Array.isArray(value) && value.length > 0 && value.every((v): v is string => typeof v === 'string')) {
    const [shell, flag, script] = value as string[];
    return value.length === 3 && /(?:^|\/)(?:ba|z)?sh$/.test(shell!) && /^-l?c$/.test(flag!) ? script! : value.join(' ');
  }
  return null;
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null && typeof (output as { content?: unknown }).content === 'string') return (output as { content: string }).content;
  return '';
}

function exitFromOutput(output: string | undefined): number | undefined {
  const m = output === undefined ? null : EXIT_LINE.exec(output);
  return m ? Number(m[1]) : undefined;
}

// The model's view of a command: a header (chunk id, wall time, exit code, token count), then `Output:`.
function outputBody(output: string | undefined): string {
  if (output === undefined) return '';
  const at = output.indexOf('Output:\n');
  return at === -1 ? output : output.slice(at + 'Output:\n'.length);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
