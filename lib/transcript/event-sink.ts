import { decisionSentence } from './prompt-signals';
import { clipText } from './work-event-text';
import { MAX_OPEN_FAILURES, MAX_SEEN_PROMPTS, type WorkCarry, type WorkEvent, type WorkState } from './work-event-types';

/** The events a transcript reader collects, and the one way it adds them. */
export interface EventSink {
  events: WorkEvent[];
  /**
   * Adds an event with its text clipped to one bounded line, once: a repeat (same kind, path,
   * resolved error and text) is dropped, except for the contract events, which repeat on purpose
   * (the same next step restated after a later turn, a prompt typed twice).
   */
  emit: (e: WorkEvent) => void;
}

const REPEATED_KINDS: ReadonlySet<string> = new Set(['next-step', 'progress', 'question', 'waiting', 'waiting-cleared', 'user-request', 'final-message']);

/** An empty sink; every host's transcript reader collects its work events through one. */
export function createEventSink(): EventSink {
  const events: WorkEvent[] = [];
  const seen = new Set<string>();
  return {
    events,
    emit: (e) => {
      const text = clipText(e.text);
      if (!REPEATED_KINDS.has(e.kind)) {
        const key = `${e.kind}\u0000${e.path ?? ''}\u0000${e.resolves ?? ''}\u0000${text}`;
        if (seen.has(key)) return;
        seen.add(key);
      }
      events.push({ ...e, text });
    },
  };
}

/** A decision in Stop's `last_assistant_message` when the transcript had not caught up with it. */
export function tailDecision(sink: EventSink, lastAssistantMessage: string | undefined, lastAssistantText: string): void {
  if (typeof lastAssistantMessage !== 'string' || lastAssistantMessage.trim() === lastAssistantText.trim()) return;
  const decision = decisionSentence(lastAssistantMessage);
  if (decision !== null) sink.emit({ kind: 'decision', text: decision });
}

/** The state a reader hands back once its records are read: its events, and what to carry to the next delta, bounded. */
export function finishWorkState(sink: EventSink, carry: WorkCarry): WorkState {
  return {
    events: sink.events,
    carry: {
      openFailures: carry.openFailures.slice(-MAX_OPEN_FAILURES),
      lastTurnDone: carry.lastTurnDone === true,
      seenPrompts: (carry.seenPrompts ?? []).slice(-MAX_SEEN_PROMPTS),
      ...(carry.taskSubjects !== undefined && Object.keys(carry.taskSubjects).length > 0 ? { taskSubjects: carry.taskSubjects } : {}),
    },
  };
}
