import type { TranscriptRecord } from '../../transcript/records';
import { CORRECTION, DECISION, decisionSentence } from '../../transcript/prompt-signals';
import { describeToolCall } from '../../transcript/tool-call-events';
import { createEventSink, finishWorkState } from '../../transcript/event-sink';
import { absolutePath, clipText, firstLines } from '../../transcript/work-event-text';
import { type ExtractWorkEventsOptions, type WorkEvent, type WorkState } from '../../transcript/work-event-types';
import { rolloutSteps, type RolloutStep } from './rollout-steps';

// Prompts that manage the session: in `codex exec` a slash command is sent as text, not run.
const SESSION_COMMANDS = new Set(['/compact', '/clear', '/new', '/resume', '/status', '/quit', '/exit']);

/**
 * The work-state events of a Codex rollout delta, in the same model as Claude Code's
 * transcript gives (lib/transcript/work-event-types.ts): files read (the command parser's
 * `read` entries) and modified (apply_patch's FileChange, shell redirects), errors by exit code
 * and their resolutions across deltas, goals as tasks, user corrections and decisions, git and
 * environment commands, and the last user request. Never throws.
 */
export function extractCodexWorkState(records: TranscriptRecord[], opts: ExtractWorkEventsOptions = {}): WorkState {
  const failures = new Map<string, string>(Object.entries(opts.openFailures ?? {}));
  const sink = createEventSink();
  const { emit } = sink;
  let lastRequest: WorkEvent | undefined;
  let lastAssistantText = '';
  for (const step of rolloutSteps(records)) {
    const at = { timestamp: step.timestamp };
    if (step.kind === 'prompt') {
      if (SESSION_COMMANDS.has(step.text.split(/\s/)[0]!)) continue;
      lastRequest = { kind: 'user-request', text: clipText(step.text), ...at };
      if (CORRECTION.test(step.text)) emit({ kind: 'rejected', text: `user correction: ${step.text}`, ...at });
      else if (DECISION.test(step.text)) emit({ kind: 'decision', text: `user: ${step.text}`, ...at });
    } else if (step.kind === 'assistant') {
      lastAssistantText = step.text;
      const decision = decisionSentence(step.text);
      if (decision !== null) emit({ kind: 'decision', text: decision, ...at });
    } else if (step.kind === 'goal') emit({ kind: 'task', text: step.text, ...at });
    else foldCall(step, failures, emit);
  }
  return finishWorkState(sink, { lastAssistantMessage: opts.lastAssistantMessage, lastAssistantText, lastRequest, failures });
}

type CallStep = Extract<RolloutStep, { kind: 'shell' | 'patch' }>;

function foldCall(step: CallStep, failures: Map<string, string>, emit: (e: WorkEvent) => void): void {
  const at = { uuid: step.id, timestamp: step.timestamp };
  const label = step.kind === 'shell' ? `Bash \`${clipText(step.command, 120)}\`` : `apply_patch ${step.files.join(', ') || '(no files)'}`;
  // The same command, or a patch of the same files, counts as the same attempt (as on Claude Code).
  const signature = step.kind === 'shell' ? `Bash:${step.command.replace(/\s+/g, ' ').trim()}` : `apply_patch:${step.files.join(',')}`;
  if (step.outcome === 'error') {
    const output = firstLines(step.output);
    const exit = step.kind === 'shell' && step.exitCode !== undefined ? ` (exit ${step.exitCode})` : '';
    failures.delete(signature); // re-inserted last: the bound forgets the oldest first
    failures.set(signature, output);
    emit({ kind: 'error', text: `${label} failed${exit}: ${output || 'no output'}`, ...at });
    return;
  }
  if (step.kind === 'patch') {
    for (const file of step.files) {
      const path = absolutePath(file, step.cwd);
      emit({ kind: 'file-modified', text: `${path} (apply_patch)`, path, ...at });
    }
  } else {
    for (const e of describeToolCall({ id: step.id, name: 'Bash', input: { command: step.command }, cwd: step.cwd, ...at }, step.outcome)) emit(e);
    if (step.outcome === 'ok') {
      for (const file of step.reads) {
        const path = absolutePath(file, step.cwd);
        emit({ kind: 'file-read', text: path, path, ...at });
      }
    }
  }
  if (step.outcome === 'ok' && failures.has(signature)) {
    emit({ kind: 'resolution', text: `${label} now succeeds (was: ${failures.get(signature) || 'an error'})`, ...at });
    failures.delete(signature);
  }
}
