import { decisionSentence } from './prompt-signals';
import { clipText } from './work-event-text';
import { MAX_OPEN_FAILURES, type WorkEvent, type WorkState } from './work-event-types';

/** The events a transcript reader collects, and the one way it adds them. */
export interface EventSink {
  events: WorkEvent[];
  /** Adds an event with its text clipped to one bounded line, once: a repeat (same kind, path and text) is dropped. */
  emit: (e: WorkEvent) => void;
}

/** An empty sink; every host's transcript reader collects its work events through one. */
export function createEventSink(): EventSink {
  const events: WorkEvent[] = [];
  const seen = new Set<string>();
  return {
    events,
    emit: (e) => {
      const text = clipText(e.text);
      const key = `${e.kind}\u0000${e.path ?? ''}\u0000${text}`;
      if (seen.has(key)) return;
      seen.add(key);
      events.push({ ...e, text });
    },
  };
}

/**
 * The state a reader hands back once its records are read: a decision in Stop's
 * `last_assistant_message` when the transcript had not caught up with it, the last user
 * request last, and the failures still open, bounded to the most recent.
 */
export function finishWorkState(sink: EventSink, end: { lastAssistantMessage?: string; lastAssistantText: string; lastRequest?: WorkEvent; failures: Map<string, string> }): WorkState {
  const tail = end.lastAssistantMessage;
  if (typeof tail === 'string' && tail.trim() !== end.lastAssistantText.trim()) {
    const decision = decisionSentence(tail);
    if (decision !== null) sink.emit({ kind: 'decision', text: decision });
  }
  if (end.lastRequest !== undefined) sink.events.push(end.lastRequest);
  return { events: sink.events, openFailures: Object.fromEntries([...end.failures].slice(-MAX_OPEN_FAILURES)) };
}
