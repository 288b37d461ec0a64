import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTranscriptChunk } from '../../../lib/transcript/jsonl';
import type { TranscriptRecord } from '../../../lib/transcript/records';

/** test/fixtures/copilot: real payloads and transcripts of Copilot CLI 1.0.102 (see its README). */
export const COPILOT_FIXTURES = join(__dirname, '..', '..', 'fixtures', 'copilot');

/** A real payload (`payloads/<name>.json`), with fields overridden. */
export function copilotPayload(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...JSON.parse(readFileSync(join(COPILOT_FIXTURES, 'payloads', `${name}.json`), 'utf8')), ...overrides };
}

/** The records of a recorded `events.jsonl`. */
export function copilotEvents(name: 'events-sample' | 'events-after-compact'): TranscriptRecord[] {
  return parseTranscriptChunk(readFileSync(join(COPILOT_FIXTURES, `${name}.jsonl`), 'utf8')).records;
}
