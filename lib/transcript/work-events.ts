import type { TranscriptRecord } from './records';
import type { ExtractWorkEventsOptions, WorkEvent } from './work-event-types';

export type { WorkEvent, WorkEventKind, ExtractWorkEventsOptions } from './work-event-types';

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
  void records;
  void opts;
  return [];
}
