import type { TranscriptRecord } from '../../transcript/records';
import { isOpenFailure, recordFailure, recordSuccess } from '../../transcript/call-outcomes';
import { createEventSink, finishWorkState, tailDecision } from '../../transcript/event-sink';
import type { OpenFailure } from '../../transcript/failure-pairing';
import { decisionSentence } from '../../transcript/prompt-signals';
import { describeToolCall, type PathContext, type ToolCall } from '../../transcript/tool-call-events';
import { endOfTurn, userRequest, type Turn } from '../../transcript/turn-events';
import type { ExtractWorkEventsOptions, WorkEvent, WorkState } from '../../transcript/work-event-types';
import { copilotSteps, type CopilotStep } from './event-steps';

/**
 * The work-state events of a GitHub Copilot CLI transcript delta (`events.jsonl`), in the
 * model Claude Code's and Codex's transcripts give (lib/transcript/work-event-types.ts): files
 * read (`view`) and modified (`create`, `edit`, apply_patch, shell redirects), errors by exit
 * code with what resolved them across deltas, each typed prompt with its intent, decisions,
 * git and environment commands, and what each turn's final message says. Never throws.
 */
export function extractCopilotWorkState(records: TranscriptRecord[], opts: ExtractWorkEventsOptions = {}): WorkState {
  const where: PathContext = { projectRoot: opts.projectRoot, homeDir: opts.homeDir };
  let failures: OpenFailure[] = [...(opts.carry?.openFailures ?? [])].filter(isOpenFailure);
  let lastTurnDone = opts.carry?.lastTurnDone === true;
  const sink = createEventSink();
  const { emit } = sink;
  let turn: Turn = { didWork: false };
  const endTurn = (finalText: string | undefined) => {
    lastTurnDone = endOfTurn(turn, finalText, emit) || (lastTurnDone && !turn.didWork && finalText === undefined);
  };
  for (const step of copilotSteps(records)) {
    const at = { uuid: step.id, timestamp: step.timestamp };
    if (step.kind === 'prompt') {
      endTurn(turn.finalText);
      turn = { didWork: false };
      userRequest(step.text, lastTurnDone, at, emit);
      lastTurnDone = false;
    } else if (step.kind === 'assistant') {
      turn.finalText = step.text;
      const decision = decisionSentence(step.text);
      if (decision !== null) emit({ kind: 'decision', text: decision, ...at });
    } else {
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

type CallStep = Extract<CopilotStep, { kind: 'shell' | 'file' }>;

// A shell call reads as a Bash call and a file tool as Claude Code's Read, Write or Edit on its
// file, so the pairing, the labels and the error lines are the ones Claude Code's calls get.
function foldCall(step: CallStep, failures: OpenFailure[], where: PathContext, emit: (e: WorkEvent) => void): OpenFailure[] {
  const at = { uuid: step.id, timestamp: step.timestamp };
  const call: ToolCall =
    step.kind === 'shell'
      ? { id: step.id, name: 'Bash', input: { command: step.command }, cwd: step.cwd, ...at }
      : { id: step.id, name: step.tool, input: { file_path: step.files[0] }, cwd: step.cwd, ...at };
  if (step.outcome === 'error') {
    const output = step.kind === 'shell' && step.exitCode !== undefined ? `Exit code ${step.exitCode}\n${step.output}` : step.output;
    return recordFailure(failures, call, step.id, output, where, at, emit);
  }
  const calls = step.kind === 'file' ? step.files.map((file) => ({ ...call, input: { file_path: file } })) : [call];
  for (const one of calls) for (const e of describeToolCall(one, step.outcome, where)) emit(e);
  return step.outcome === 'ok' ? recordSuccess(failures, call, step.output, where, at, emit) : failures;
}
