import { recordFill, type ContextFill } from '../../budget/context-fill';
import { readTranscriptTail } from '../transcript-tail';

/** The fill read from a transcript file, or why there is none. */
export type TranscriptFillRead =
  | { ok: true; fill: ContextFill | null; bytesRead: number; fileBytes: number }
  | { ok: false; code: 'TRANSCRIPT_UNREADABLE'; message: string };

/**
 * The context fill at the end of a Claude Code transcript: the last main-chain usage, or a
 * compaction's postTokens (lib/budget/context-fill.ts), read from the file's tail. Never throws.
 */
export function readTranscriptFill(path: string): TranscriptFillRead {
  const read = readTranscriptTail(path, recordFill);
  return read.ok ? { ok: true, fill: read.found, bytesRead: read.bytesRead, fileBytes: read.fileBytes } : read;
}
