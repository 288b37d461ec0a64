import { join } from 'node:path';
import { readFileSync } from 'node:fs';

/** One line of a ref's reflog: the value before and after, and the message of the move. */
export interface ReflogEntry {
  old: string;
  next: string;
  message: string;
}

const LINE = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) [^\t]*\t?(.*)$/;

/**
 * The reflog of `ref` (`<common dir>/logs/<ref>`), oldest first; empty when the ref has none
 * (core.logAllRefUpdates off, a bare repository, expired). Read as a file, like git's own
 * reflog machinery: no process for what is one small read.
 */
export function readReflog(commonDir: string, ref: string): ReflogEntry[] {
  let text: string;
  try {
    text = readFileSync(join(commonDir, 'logs', ref), 'utf8');
  } catch {
    return [];
  }
  const out: ReflogEntry[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m) out.push({ old: m[1]!, next: m[2]!, message: m[3]! });
  }
  return out;
}
