import { clipText } from './work-event-text';
import type { WorkEvent } from './work-event-types';

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
