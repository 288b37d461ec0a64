// Synchronous reads of small files: node:fs/promises costs ~2 ms to load at every SessionStart.
import { join } from 'node:path';
import type { BootReceipt } from '../resume/session-authority';
import { readRegularFile } from './regular-file';
import { BOOT_RECEIPT_FILE } from './runtime-files';


/**
 * Reads the boot receipt for the session cross-check. Call it only when the hook gave an id:
 * without one the receipt is neither used nor offered. Never throws.
 */
export async function readBootReceipt(runtimeDir: string): Promise<BootReceipt> {
  const path = join(runtimeDir, BOOT_RECEIPT_FILE);
  let text: string;
  try {
    text = readRegularFile(path, { followLinks: false, maxBytes: 64 * 1024 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return code === 'ENOENT' ? { state: 'absent', path } : { state: 'unreadable', path, code };
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { state: 'malformed', path };
    return { state: 'read', path, sessionId: (parsed as { session_id?: unknown }).session_id };
  } catch {
    return { state: 'malformed', path };
  }
}
