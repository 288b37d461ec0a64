import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readPrivateFile, writePrivateFile } from './private-file';
import { STATE_FILES } from './state-files';

/** The boot receipt: which session the last SessionStart saw (the resume runtime cross-checks it). */
export const BOOT_RECEIPT_FILE = STATE_FILES.bootReceipt.path;
/** Left by PreCompact so the session that continues after compaction links to the checkpoint. */
export const COMPACT_MARKER_FILE = STATE_FILES.compactMarker.path;

/** What PreCompact leaves behind. */
export interface CompactMarker {
  capsuleId: string;
  sessionId: string;
  trigger: string;
  at: string;
}

/** Writes a JSON file in the runtime dir atomically; returns its path. */
export function writeRuntimeJson(runtimeDir: string, name: string, value: unknown): string {
  const path = join(runtimeDir, name);
  writePrivateFile(path, `${JSON.stringify(value)}\n`);
  return path;
}

/** Reads a JSON file of the runtime dir, or null when it is missing or unreadable. */
export function readRuntimeJson(runtimeDir: string, name: string): unknown {
  try {
    const text = readPrivateFile(join(runtimeDir, name));
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** Removes a runtime file; missing is fine. */
export function removeRuntimeFile(runtimeDir: string, name: string): void {
  rmSync(join(runtimeDir, name), { force: true });
}

/** Reads the compact marker when it has the expected shape. */
export function readCompactMarker(runtimeDir: string): CompactMarker | null {
  const value = readRuntimeJson(runtimeDir, COMPACT_MARKER_FILE) as Partial<CompactMarker> | null;
  return value && typeof value.capsuleId === 'string' && typeof value.sessionId === 'string' ? (value as CompactMarker) : null;
}
