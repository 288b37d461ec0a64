import type { TranscriptRecord } from '../../transcript/records';
import { isOpenFailure, recordFailure, recordSuccess } from '../../transcript/call-outcomes';
import { createEventSink, finishWorkState, tailDecision } from '../../transcript/event-sink';
import type { OpenFailure } from '../../transcript/failure-pairing';
import { decisionSentence } from '../../transcript/prompt-signals';
import { describeToolCall, type PathContext, type ToolCall } from '../../transcript/tool-call-events';
import { endOfTurn, userRequest, type Turn } from '../../transcript/turn-events';
import { displayPath } from '../../transcript/work-event-text';
import type { ExtractWorkEventsOptions, WorkEvent, WorkState } from '../../transcript/work-event-types';
import { rolloutSteps, type RolloutStep } from './rollout-steps';

// Prompts that manage the session: in `codex exec` a slash command is sent as text, not run.
const SESSION_COMMANDS = new Set(['/compact', '/clear', '/new', '/resume', '/status', '/quit', '/exit']);

/**
 * The work-state events of a Codex rollout delta, in the same model as Claude Code's
 * transcript gives (lib/transcript/work-event-types.ts): files read (the command parser's
 * `read` entries) and modified (apply_patch's FileChange, shell redirects), errors by exit code
 * with the line that matters and what resolved them across deltas, goals as tasks, each typed
 * prompt with its intent, corrections and decisions, git and environment commands, and what
 * each turn's final message says (done, the next step, a question, a wait). Never throws.
 */
export function extractCodexWorkState(records: TranscriptRecord[], opts: ExtractWorkEventsOptions = {}): WorkState {
  const where: PathContext = { projectRoot: opts.projectRoot, homeDir: opts.homeDir };
  let failures: OpenFailure[] = [...(opts.carry?.openFailures ?? [])].filter(isOpenFailure);
  let lastTurnDone = opts.carry?.lastTurnDone === true;
  const sink = createEventSink();
  const { emit } = sink;
  let turn: Turn = { didWork: false };
  const endTurn = (finalText: string | undefined) => {
    lastTurnDone = endOfTurn(turn, finalText, emit) || (lastTurnDone && !turn.didWork && finalText === undefined);
  };
  for (const step of rolloutSteps(records)) {
    const at = { timestamp: step.timestamp };
    if (step.kind === 'prompt') {
      if (SESSION_COMMANDS.has(step.text.split(/\s/)[0]!)) continue;
      endTurn(turn.finalText);
      turn = { didWork: false };
      userRequest(step.text, lastTurnDone, at, emit);
      lastTurnDone = false;
    } else if (step.kind === 'assistant') {
      turn.finalText = step.text;
      const decision = decisionSentence(step.text);
      if (decision !== null) emit({ kind: 'decision', text: decision, ...at });
    } else if (step.kind === 'goal') emit({ kind: 'task', text: step.text, ...at });
    else {
      turn.didWork = true;
      turn.finalText = undefined;
      failures = foldCall(step, failures, where, emit);
    }
  }
  const tail = typeof opts.lastAssistantMessage === 'string' && opts.lastAssistantMessage.trim() !== '' ? opts.lastAssistantMessage : undefined;
  tailDecision(sink, tail, turn.finalText ?? '');
  endTurn(tail ?? turn.finalText);
  return finishWorkState(sink, { openFailures: failures, lastTurnDone });
}

type CallStep = Extract<RolloutStep, { kind: 'shell' | 'patch' }>;

// A shell call reads as a Bash call and a patch as a call on its files, so the pairing, the
// labels and the error lines are the ones Claude Code's calls get.
function foldCall(step: CallStep, failures: OpenFailure[], where: PathContext, emit: (e: WorkEvent) => void): OpenFailure[] {
  const at = { uuid: step.id, timestamp: step.timestamp };
  const call: ToolCall =
    step.kind === 'shell'
      ? { id: step.id, name: 'Bash', input: { command: step.command }, cwd: step.cwd, ...at }
      : // A patch of several files is named (and paired) by its first.
        { id: step.id, name: 'apply_patch', input: step.files[0] !== undefined ? { path: step.files[0] } : {}, cwd: step.cwd, ...at };
  if (step.outcome === 'error') {
    const output = step.kind === 'shell' && step.exitCode !== undefined ? `Exit code ${step.exitCode}\n${step.output}` : step.output;
    return recordFailure(failures, call, step.id, output, where, at, emit);
  }
  if (step.kind === 'patch') {
    for (const file of step.files) {
      const path = displayPath(file, { cwd: step.cwd, ...where });
      emit({ kind: 'file-modified', text: `${path} (apply_patch)`, path, ...at });
    }
  } else {
    for (const e of describeToolCall(call, step.outcome, where)) emit(e);
    if (step.outcome === 'ok') {
      for (const file of step.reads) {
        const path = displayPath(file, { cwd: step.cwd, ...where });
        emit({ kind: 'file-read', text: path, path, ...at });
      }
    }
  }
  return step.outcome === 'ok' ? recordSuccess(failures, call, step.output, where, at, emit) : failures;
}
